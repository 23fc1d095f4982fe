// @vitest-environment node
// Rendered as the server renders it (no DOM): the page's HTML, which no script takes over (decision 030).
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { faq } from "~/content";
import { Faq } from "./Faq";

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;");

describe("FAQ on the server", () => {
  it("holds every question and answer in the HTML, so the page reads without JavaScript", () => {
    const html = renderToString(<Faq />);
    for (const item of faq) {
      expect(html).toContain(escape(item.question));
      expect(html).toContain(escape(item.answer));
    }
  });

  it("is a native exclusive accordion, every item closed", () => {
    const html = renderToString(<Faq />);
    expect(html.match(/<details name="faq"/g)).toHaveLength(faq.length);
    expect(html).not.toMatch(/<details[^>]* open/);
  });
});
