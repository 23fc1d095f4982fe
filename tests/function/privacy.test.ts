// No answer depends on someone else's enquiry (docs/decisions/022): deduplication is one
// visitor's (the same sender, or the same Idempotency-Key), every request counts against its own
// sender's limit, and no caller is given another caller's enquiry id.
import assert from "node:assert/strict";
import fc from "fast-check";
import { ENQUIRY_HEADERS } from "../../supabase/functions/_shared/contact-message.ts";
import { client, emailOf, enquiry, rowsAbout, setup, test, token } from "./support.ts";

/** What a caller can observe of an answer: its status, the shape of its body, Retry-After's presence. */
async function observed(response: Response) {
  const body = await response.json();
  return { status: response.status, keys: Object.keys(body).sort(), retryAfter: response.headers.has("retry-after"), id: body.id };
}

test("for any two senders, what the second is answered (status, body, limits) is the same whether or not the first sent the same message", async () => {
  await using fn = setup({ RATE_LIMIT_PER_CLIENT: "2" }, { afterEnquiry: false });
  const text = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== "" && !/[\p{C}]/u.test(s));
  await fc.assert(
    fc.asyncProperty(text, text, text, fc.boolean(), async (name, title, details, firstSentIt) => {
      const t = token();
      const message = { name, email: emailOf(t), projectTitle: `${title} ${t}`, projectDetails: details };
      const first = client();
      let firstId: string | undefined;
      if (firstSentIt) {
        const response = await fn.handle(enquiry(message, { "cf-connecting-ip": first }));
        assert.equal(response.status, 200);
        firstId = (await response.json()).id;
      }
      // The second sender: the same message, then two others, within a limit of two.
      const second = client();
      const answers = [];
      for (const body of [message, { ...message, projectDetails: `${details} 2` }, { ...message, projectDetails: `${details} 3` }]) {
        answers.push(await observed(await fn.handle(enquiry(body, { "cf-connecting-ip": second }))));
      }
      assert.deepEqual(
        answers.map(({ id: _, ...seen }) => seen),
        [
          { status: 200, keys: ["id", "status"], retryAfter: false },
          { status: 200, keys: ["id", "status"], retryAfter: false },
          { status: 429, keys: ["message", "retryAfterSeconds", "status"], retryAfter: true },
        ],
      );
      assert.ok(!answers.some((a) => a.id !== undefined && a.id === firstId), "never the first sender's enquiry id");
      // Each sender's message is its own enquiry.
      assert.equal((await rowsAbout(t)).length, (firstSentIt ? 1 : 0) + 2);
    }),
    { numRuns: 12 },
  );
});

test("one sender's double submit under two keys is one enquiry, and still counts against that sender's limit", async () => {
  await using fn = setup({ RATE_LIMIT_PER_CLIENT: "2" }, { afterEnquiry: false });
  const t = token();
  const message = { name: "Jane Victim", email: emailOf(t), projectTitle: `Demo EP ${t}`, projectDetails: "" };
  const sender = client();
  const send = (body: typeof message, key = crypto.randomUUID()) =>
    fn.handle(enquiry(body, { "cf-connecting-ip": sender, [ENQUIRY_HEADERS.idempotencyKey]: key }));
  const [a, b] = [await send(message), await send(message)];
  assert.deepEqual([a.status, b.status], [200, 200]);
  assert.equal((await a.json()).id, (await b.json()).id);
  assert.equal((await rowsAbout(t)).length, 1);
  // Two requests counted: the third is over the limit of two.
  assert.equal((await send({ ...message, projectTitle: `Other ${t}` })).status, 429);
});
