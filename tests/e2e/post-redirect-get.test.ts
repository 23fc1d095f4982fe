/**
 * Post/Redirect/Get without JavaScript (decision 027): a sent form is answered with a 303 to the result
 * page, a GET page with the spec's success text, so Back, Forward and Reload behave as on any well-made
 * site and never post again; a refused post is answered at once, its status and every value kept. The
 * home page stays the one public document for everyone; the result page is private.
 */
import type { Page, Response } from "@playwright/test";
import { contactForm, formNotices, toasts } from "~/content";
import { SENT_PAGE, SENT_PAGE_TARGET } from "~/enquiry/outcome";
import { expect, takeConsoleErrors, test, type Stack } from "./fixtures";

const form = (page: Page) => page.locator("#contact form");
const details = (page: Page) => form(page).getByRole("textbox", { name: /Project Details/ });
const rows = (stack: Stack, title: string) => stack.db`select id from contact_enquiries where project_title = ${title}`;

async function fillIn(page: Page, title: string) {
  await form(page).getByLabel("Name").fill("Ada Lovelace");
  await form(page).getByLabel("Email").fill("ada@example.com");
  await form(page).getByLabel("Project Title").fill(title);
  await details(page).fill(`Four songs for ${title}`);
}

/** Every POST the page makes, and every document it loads. */
function watch(page: Page) {
  const posts: string[] = [];
  const documents: Response[] = [];
  page.on("request", (request) => request.method() === "POST" && posts.push(request.url()));
  page.on("response", (response) => response.request().resourceType() === "document" && documents.push(response));
  return { posts, documents };
}

test.describe("Post/Redirect/Get without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  // The answers do not depend on the width: once is enough.
  test.skip(({ isMobile }) => !isMobile, "runs in the mobile project only");

  test("a sent form goes on (303) to a private result page with the spec's success text; Back shows the form without the message; Forward and Reload post nothing", async ({
    page,
    stack,
  }) => {
    const title = `PRG ${Date.now().toString(36)}`;
    const { posts, documents } = watch(page);
    await page.goto("/");
    await page.waitForTimeout(250); // people take longer than MIN_FILL_MS
    await fillIn(page, title);
    await form(page).getByRole("button", { name: contactForm.submit }).click();
    await page.waitForURL(`**${SENT_PAGE_TARGET}`);

    const post = documents.find((d) => d.request().method() === "POST")!;
    expect(post.status()).toBe(303);
    expect(post.headers()["location"]).toBe(SENT_PAGE_TARGET);
    const result = documents.at(-1)!;
    expect([result.request().method(), result.status()]).toEqual(["GET", 200]);
    expect(result.headers()["cache-control"]).toBe("private, no-store");
    const notice = page.locator("#contact").getByRole("status");
    await expect(notice).toContainText(toasts.success.title);
    await expect(notice).toContainText(toasts.success.text);
    for (const label of ["Name", "Email", "Project Title"]) await expect(form(page).getByLabel(label)).toHaveValue("");
    await expect(details(page)).toHaveValue("");
    expect(await rows(stack, title)).toHaveLength(1);

    // Back: the form the visitor sent from, without the message they sent (name and e-mail are theirs,
    // and the browser may keep them, as it would fill them in).
    await page.goBack();
    expect(new URL(page.url()).pathname).toBe("/");
    await expect(form(page).getByLabel("Project Title")).toHaveValue("");
    await expect(details(page)).toHaveValue("");
    await expect(page.locator("#contact").getByRole("status")).toHaveCount(0);

    // Forward and Reload: the result page again, fetched with GET, never a resubmission.
    await page.goForward();
    expect(page.url()).toContain(SENT_PAGE_TARGET);
    await expect(page.locator("#contact").getByRole("status")).toContainText(toasts.success.title);
    await page.reload();
    await expect(page.locator("#contact").getByRole("status")).toContainText(toasts.success.title);
    expect(posts, "posts").toHaveLength(1);
    expect(documents.filter((d) => d.request().method() === "POST")).toHaveLength(1);
    expect(await rows(stack, title)).toHaveLength(1);
  });

  test("a refused post is answered at once: its status, its notice and every value kept", async ({ page, stack, consoleErrors }) => {
    const title = `PRG refused ${Date.now().toString(36)}`;
    const { documents } = watch(page);
    await page.goto("/");
    await fillIn(page, title);
    await form(page).getByLabel("Email").fill("ada..lovelace@example.com"); // browsers accept it; mail servers do not
    await form(page).getByRole("button", { name: contactForm.submit }).click();
    await expect(page.locator("#contact").getByRole("alert")).toContainText(formNotices.invalid.title);
    const answer = documents.at(-1)!;
    expect([answer.request().method(), answer.status()]).toEqual(["POST", 422]);
    expect(answer.headers()["location"]).toBeUndefined();
    expect(answer.headers()["cache-control"]).toBe("private, no-store");
    await expect(form(page).getByLabel("Email")).toHaveValue("ada..lovelace@example.com");
    await expect(form(page).getByLabel("Project Title")).toHaveValue(title);
    await expect(details(page)).toHaveValue(`Four songs for ${title}`);
    expect(await rows(stack, title)).toHaveLength(0);
    // Chromium reports a document that comes with a 4xx status as a failed resource: the status is the point.
    await takeConsoleErrors(consoleErrors, /status of 422/);
  });

  test("the home page stays the one public document after a send: the same bytes, no notice, shared caches may keep it", async ({
    request,
  }) => {
    const before = await request.get("/");
    const sent = await request.post("/?index", {
      form: { name: "Ada", email: "ada@example.com", projectTitle: `PRG home ${Date.now().toString(36)}`, projectDetails: "", website: "" },
      maxRedirects: 0,
    });
    expect(sent.status()).toBe(303);
    const after = await request.get("/");
    expect(after.headers()["cache-control"]).toMatch(/^public, .*s-maxage=\d+/);
    expect(after.headers()["etag"]).toBe(before.headers()["etag"]);
    expect(await after.text()).not.toContain(toasts.success.title);
    // The result page: the success for whoever asks, never kept by a shared cache, not for search engines.
    const result = await request.get(SENT_PAGE);
    expect(result.headers()["cache-control"]).toBe("private, no-store");
    const html = await result.text();
    expect(html).toContain(toasts.success.title);
    expect(html).toMatch(/<meta name="robots" content="noindex"/);
  });
});
