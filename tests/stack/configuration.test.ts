// `npm run stack` takes the developer's configuration the way the ecosystem does
// (scripts/local-stack/developer-config.mjs): supabase/functions/.env for the function, .env for the
// site, the shell over both, the stack's local values under them; the banner names what applied.
// Run with `npx vitest run --project stack tests/stack/configuration.test.ts`.
import assert from "node:assert/strict";
import postgres from "postgres";
import { afterAll, beforeAll, describe, test } from "vitest";
import { RELAY_HEADERS } from "#shared/contact-message.ts";
import { freePort } from "../../scripts/local-stack/ports.mjs";
import { freePorts, functionUrl, type Ports, sendEnquiry, stackFolder, startStack, until, visitorMessage } from "./start-stack.ts";

type Stack = Awaited<ReturnType<typeof startStack>>;

/** One enquiry as the stack delivers it from the visitor at `address` (the local CLIENT_IP_HEADER). */
const send = (ports: Ports, address: string, i: number, tag: string) =>
  sendEnquiry(ports, visitorMessage(tag, i), { headers: { "cf-connecting-ip": address } });

/** The statuses of six enquiries in a row from one sender. */
async function sixFromOneSender(ports: Ports, tag: string) {
  const statuses = [];
  for (let i = 0; i < 6; i++) statuses.push((await send(ports, "198.51.100.7", i, tag)).status);
  return statuses;
}

const FIVE_THEN_429 = [200, 200, 200, 200, 200, 429];

describe("from the shell: RATE_LIMIT_PER_CLIENT=5 and a real-looking RESEND_API_KEY", () => {
  const folder = stackFolder();
  const resendKey = "re_LocalTry_4f9a8b7c6d5e4f3a2b1c";
  let ports: Ports;
  let stack: Stack;
  let resendUrl: string;
  beforeAll(async () => {
    ports = await freePorts();
    // Resend as unreachable from here as the real one is from a machine without internet: a port
    // on this machine where nothing listens (tests send nothing beyond 127.0.0.1).
    resendUrl = `http://127.0.0.1:${await freePort()}`;
    stack = await startStack(ports, folder, { RATE_LIMIT_PER_CLIENT: "5", RESEND_API_KEY: resendKey, RESEND_API_URL: resendUrl });
  });
  afterAll(async () => {
    await stack?.stop();
    folder.remove();
  });

  test("the sixth enquiry from one sender is refused with 429; the banner names the variables, never a value", async () => {
    assert.deepEqual(await sixFromOneSender(ports, "shell"), FIVE_THEN_429);
    assert.match(stack.banner, /over the stack's .*RATE_LIMIT_PER_CLIENT \(shell\)/);
    assert.match(stack.banner, /RESEND_API_KEY \(shell\)/);
    assert.ok(!stack.output.includes(resendKey), "the key's value is never printed");
  });

  test("mail goes through Resend; unreachable, it is logged as such and the enquiry stays stored for redelivery", async () => {
    assert.match(stack.banner, new RegExp(`Mail +through Resend \\(${resendUrl}\\)`));
    const response = await send(ports, "198.51.100.8", 0, "resend");
    assert.equal(response.status, 200);
    const { id } = await response.json();
    // The network failure, as the function reports it: a temporary one, to be retried.
    const logged = await until(async () => stack.output.includes(`"event":"delivery-retry-later","enquiry":"${id}"`));
    assert.ok(logged, `no delivery-retry-later for ${id}:\n${stack.output.slice(-3000)}`);
    assert.match(stack.output, new RegExp(`"enquiry":"${id}".*Resend unreachable \\(network\\):.*Connection refused`));

    const db = postgres(`postgres://postgres:postgres@127.0.0.1:${ports.db}/postgres`, { max: 1, onnotice: () => {} });
    try {
      const rows = await db`select kind, status from contact_deliveries where enquiry_id = ${id} order by kind`;
      assert.deepEqual(
        rows.map((r) => [r.kind, r.status]),
        [
          ["confirmation", "pending"],
          ["studio", "pending"],
        ],
      );
    } finally {
      await db.end();
    }
    const caught = await (await fetch(`http://127.0.0.1:${ports.mailUi}/messages`)).json();
    assert.ok(!JSON.stringify(caught).includes(id), "no mail of this enquiry reaches the catcher");
  });
});

describe("from the env files, under the shell", () => {
  const relaySecret = "relay-secret-from-the-site-dotenv-0123456789";
  const folder = stackFolder({
    // As supabase/functions/.env.example has it for `supabase start` (Docker): the SMTP host is Docker's.
    "supabase/functions/.env": "RATE_LIMIT_PER_CLIENT=5\nSMTP_HOST=host.docker.internal\nSTUDIO_NAME=Function File Studio\n",
    ".env": `# the site's\nSTUDIO_NAME="Site File Studio"\nENQUIRY_RELAY_SECRET=${relaySecret}\nSUPABASE_URL=https://abcdefghijklmnopqrst.supabase.co\n`,
  });
  let ports: Ports;
  let stack: Stack;
  beforeAll(async () => {
    ports = await freePorts();
    stack = await startStack(ports, folder, { STUDIO_NAME: "Shell Studio" });
  });
  afterAll(async () => {
    await stack?.stop();
    folder.remove();
  });

  test("RATE_LIMIT_PER_CLIENT=5 in supabase/functions/.env: the sixth enquiry from one sender is refused with 429", async () => {
    assert.deepEqual(await sixFromOneSender(ports, "file"), FIVE_THEN_429);
    assert.match(stack.banner, /Configuration +supabase\/functions\/\.env \(3 variables\), \.env \(3 variables\)/);
    assert.match(stack.banner, /RATE_LIMIT_PER_CLIENT \(supabase\/functions\/\.env\)/);
  });

  test("where the stack's parts listen stays the stack's: mail reaches its catcher, the page calls its function", async () => {
    assert.match(stack.banner, /kept the stack's own SMTP_HOST \(supabase\/functions\/\.env\), SUPABASE_URL \(\.env\)/);
    assert.match(stack.banner, /Mail +to the catcher above/);
    const before = (await (await fetch(`http://127.0.0.1:${ports.mailUi}/messages/count`)).json()).count;
    assert.equal((await send(ports, "198.51.100.9", 0, "wiring")).status, 200);
    assert.ok(await until(async () => (await (await fetch(`http://127.0.0.1:${ports.mailUi}/messages/count`)).json()).count >= before + 2));
    const response = await fetch(`http://127.0.0.1:${ports.site}/`);
    const page = `${response.headers.get("content-security-policy")}\n${await response.text()}`;
    assert.ok(page.includes(`127.0.0.1:${ports.function}`) && !page.includes("abcdefghijklmnopqrst"));
  });

  test("the shell wins over both files; the relay secret set in .env serves the function too", async () => {
    assert.match(stack.banner, /STUDIO_NAME \(shell\)/);
    const page = await (await fetch(`http://127.0.0.1:${ports.site}/`)).text();
    assert.match(page, /<title>[^<]*Shell Studio/);
    assert.ok(!page.includes("File Studio"));
    const health = await fetch(`${functionUrl(ports)}/relay-check`, { headers: { [RELAY_HEADERS.secret]: relaySecret } });
    assert.equal((await health.json()).relay, "recognised");
  });
});
