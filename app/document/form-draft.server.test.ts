// @vitest-environment node
import { describe, expect, it } from "vitest";
import { CONTACT_FIELDS } from "#shared/contact-message.ts";
import { DRAFT_POSTED_EVENT } from "~/enquiry/form-draft.inline";
import { inlineScriptHashes } from "./csp.server";
import { keepFormDrafts } from "./form-draft.server";

describe("the form-draft keeper in the document", () => {
  it("is added at the end of the body of a document whose form asks for it, and hashed for the CSP", () => {
    const html = `<html><body><form data-hydrate-on-intent="" data-keeps-draft=""><input name="name"></form></body></html>`;
    const kept = keepFormDrafts(html);
    // The contract's fields, whatever they are.
    expect(kept).toMatch(/^[\s\S]*<\/form><script>\(function keepFormDraft\([\s\S]*\);<\/script><\/body><\/html>$/);
    const config = JSON.parse(/\)\((\{.*\})\);<\/script><\/body>/.exec(kept)![1]!);
    expect(config).toMatchObject({ attribute: "data-keeps-draft", fields: CONTACT_FIELDS, postedEvent: DRAFT_POSTED_EVENT });
    expect(inlineScriptHashes(kept)).toHaveLength(1);
  });

  it("leaves other documents untouched", () => {
    for (const html of [
      `<html><body><form method="post"></form></body></html>`,
      `<html><body><p>data-keeps-draft</p></body></html>`,
      `<form data-keeps-draft>`,
    ]) {
      expect(keepFormDrafts(html)).toBe(html);
    }
  });
});
