// Once for the reader (decision 023): every attempt of a delivery carries the same Message-ID, made from the
// delivery key on MAIL_FROM's domain, so a mail sent twice (a lost acknowledgement, a function that died
// after the hand-over and before recording it) is one message in the reader's mail client. Checked on
// the real SMTP catcher, through a proxy that loses the catcher's answer to one message.
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import net from "node:net";
import { messageIdOf } from "../../supabase/functions/send-contact-email/mailer.ts";
import { parseNamedAddress } from "../../supabase/functions/send-contact-email/sender.ts";
import { startResendStandIn } from "./resend-standin.ts";
import {
  attemptsAbout,
  callRedeliver,
  db,
  enquiry,
  makeDue,
  mailsAbout,
  rawHeader,
  STACK_FUNCTION_ENV,
  STUDIO_INBOX,
  setup,
  test,
  token,
  valid,
} from "./support.ts";

/**
 * A TCP proxy to the catcher that loses the answer to the first message it carries: the catcher has
 * taken the message, and the sender sees its connection close instead of "250".
 */
function losingFirstAcknowledgement() {
  let lose = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(STACK_FUNCTION_ENV.SMTP_PORT), STACK_FUNCTION_ENV.SMTP_HOST);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => sockets.delete(socket));
    }
    let tail = "";
    let dataEnded = false;
    client.on("data", (chunk: Buffer) => {
      tail = (tail + chunk.toString("latin1")).slice(-5);
      if (lose && tail === "\r\n.\r\n") dataEnded = true;
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (dataEnded && lose) {
        lose = false;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  return new Promise<{ port: number; [Symbol.asyncDispose](): Promise<void> }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        // Not waiting for close's callback: under Deno 2.1 it never comes once a pooled connection was cut.
        [Symbol.asyncDispose]() {
          for (const socket of sockets) socket.destroy();
          server.close();
          return Promise.resolve();
        },
      }),
    ),
  );
}

const messageIds = (mails: { rawHeaders: string }[]) => mails.map((m) => rawHeader(m as never, "Message-ID"));

test("a delivery retried after a lost acknowledgement carries the first attempt's Message-ID: two copies in the catcher, one message for the reader", async () => {
  await using proxy = await losingFirstAcknowledgement();
  await using fn = setup({ SMTP_PORT: String(proxy.port) }, { afterEnquiry: false });
  const t = token();
  const answer = await fn.handle(enquiry(valid(t)));
  assert.equal(answer.status, 200);
  const { id } = await answer.json();
  // The one whose answer was lost waits for a retry; the catcher has it already.
  const [lost] = (await attemptsAbout(t)).filter((d) => d.status === "pending");
  assert.ok(lost, JSON.stringify(await attemptsAbout(t)));
  assert.equal(lost.attempts, 1);
  await makeDue(t);
  assert.equal((await callRedeliver(fn)).status, 200);
  assert.deepEqual(
    (await attemptsAbout(t)).map((d) => d.status),
    ["sent", "sent"],
  );

  const to = (kind: string) => (mail: { envelope: { to: string[] } }) => (kind === "studio") === mail.envelope.to.includes(STUDIO_INBOX);
  const mails = await mailsAbout(t);
  const twice = mails.filter(to(lost.kind));
  const once = mails.filter(to(lost.kind === "studio" ? "confirmation" : "studio"));
  assert.equal(twice.length, 2, "the catcher took the first attempt, and the retry");
  assert.equal(once.length, 1);
  const from = parseNamedAddress(fn.config.mailFrom);
  assert.deepEqual(messageIds(twice), [messageIdOf(`${id}:${lost.kind}`, from), messageIdOf(`${id}:${lost.kind}`, from)]);
  assert.notEqual(messageIds(once)[0], messageIds(twice)[0], "the other delivery is another message");
  assert.match(messageIds(twice)[0]!, new RegExp(`^<${id}\\.${lost.kind}@${from.address.split("@")[1]!.replaceAll(".", "\\.")}>$`));
});

test("a delivery sent again after the function died between the hand-over and recording it carries the first attempt's Message-ID", async () => {
  await using fn = setup({}, { afterEnquiry: false });
  const t = token();
  const { id } = await (await fn.handle(enquiry(valid(t)))).json();
  const first = messageIds(await mailsAbout(t)).sort();
  assert.equal(first.length, 2);
  // What a function killed after the provider took the mails leaves behind: deliveries not marked sent.
  await db`update contact_deliveries set status = 'pending', sent_at = null, next_attempt_at = now() where enquiry_id = ${id}`;
  assert.equal((await callRedeliver(fn)).status, 200);
  const all = messageIds(await mailsAbout(t)).sort();
  assert.equal(all.length, 4);
  assert.deepEqual(all, [first[0], first[0], first[1], first[1]]);
});

test("over Resend every attempt of a delivery carries the same Message-ID header and the same idempotency key", async () => {
  await using resend = startResendStandIn("re_test_key");
  await using fn = setup({ MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_test_key", RESEND_API_URL: resend.url }, { afterEnquiry: false });
  resend.failNext({ status: 500, name: "internal_server_error" }, { status: 500, name: "internal_server_error" });
  const t = token();
  const { id } = await (await fn.handle(enquiry(valid(t)))).json();
  await makeDue(t);
  assert.equal((await callRedeliver(fn)).status, 200);
  await makeDue(t);
  await callRedeliver(fn);
  const from = parseNamedAddress(fn.config.mailFrom);
  for (const kind of ["studio", "confirmation"]) {
    const attempts = resend.attempts.filter((a) => a.key === `${id}:${kind}`);
    assert.ok(attempts.length >= 2, `${kind}: ${attempts.length} attempts`);
    for (const attempt of attempts) {
      assert.deepEqual(attempt.body.headers, { "Message-ID": messageIdOf(`${id}:${kind}`, from) });
    }
  }
  assert.deepEqual(
    (await attemptsAbout(t)).map((d) => d.status),
    ["sent", "sent"],
  );
});
