// The SMTP catcher's raw route: GET /messages/<id>/raw answers message/rfc822 with the message's bytes
// exactly as the client sent them in DATA (after SMTP's dot-unstuffing, which is transport, not content),
// 8-bit bytes and CRLFs included; an unknown id is 404. Spoken to over a plain socket, as any client would.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/local-stack/ports.mjs";
import { startSmtpCatcher } from "../../scripts/local-stack/smtp-catcher.mjs";

let catcher: Awaited<ReturnType<typeof startSmtpCatcher>>;
beforeAll(async () => {
  catcher = await startSmtpCatcher({ smtpPort: await freePort(), httpPort: await freePort() });
});
afterAll(async () => {
  await catcher?.stop();
});

/** One SMTP session: each command waits for the server's reply; `data` is sent dot-stuffed. */
async function sendRaw(port: number, data: Buffer) {
  const socket = net.connect(port, "127.0.0.1");
  let buffered = "";
  const waiters: ((line: string) => void)[] = [];
  socket.on("data", (chunk) => {
    buffered += chunk.toString("latin1");
    let end;
    // A reply's last line is "NNN text" (a dash after the code means more lines follow).
    while ((end = buffered.search(/^\d{3} .*\r\n/m)) !== -1) {
      const lineEnd = buffered.indexOf("\r\n", end) + 2;
      const reply = buffered.slice(0, lineEnd);
      buffered = buffered.slice(lineEnd);
      waiters.shift()?.(reply);
    }
  });
  const reply = () => new Promise<string>((resolve) => waiters.push(resolve));
  const command = async (line: string | Buffer) => {
    const answer = reply();
    socket.write(line);
    return await answer;
  };
  expect(await reply()).toMatch(/^220/);
  expect(await command("EHLO client.test\r\n")).toMatch(/250 /);
  expect(await command("MAIL FROM:<website@studio.test>\r\n")).toMatch(/^250/);
  expect(await command("RCPT TO:<bookings@studio.test>\r\n")).toMatch(/^250/);
  expect(await command("DATA\r\n")).toMatch(/^354/);
  const stuffed = Buffer.from(data.toString("latin1").replace(/(^|\r\n)\./g, "$1.."), "latin1");
  expect(await command(Buffer.concat([stuffed, Buffer.from("\r\n.\r\n")]))).toMatch(/^250/);
  await command("QUIT\r\n");
  socket.end();
}

describe("the SMTP catcher's raw source", () => {
  it("GET /messages/<id>/raw answers message/rfc822 with the bytes as received", async () => {
    const message = Buffer.concat([
      Buffer.from(
        "From: Studio <website@studio.test>\r\nTo: bookings@studio.test\r\nSubject: raw\r\nContent-Type: text/plain; charset=iso-8859-1\r\n" +
          "Content-Transfer-Encoding: 8bit\r\n\r\nA line\r\n.a line that starts with a dot\r\n",
      ),
      Buffer.from([0xe9, 0x74, 0xe9, 0x0d, 0x0a]), // "été" in Latin-1: 8-bit bytes, not UTF-8
      Buffer.from("trailing spaces   \r\nlast line"),
    ]);
    await sendRaw(catcher.smtpPort, message);
    const [caught] = (await (await fetch(`${catcher.apiUrl}/messages`)).json()).filter((m: { subject: string }) => m.subject === "raw");
    const response = await fetch(`${catcher.apiUrl}/messages/${caught.id}/raw`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("message/rfc822");
    const raw = Buffer.from(await response.arrayBuffer());
    // What DATA carried: the message, its last line ended by the CRLF before the "." terminator.
    expect(raw.toString("latin1")).toBe(Buffer.concat([message, Buffer.from("\r\n")]).toString("latin1"));
    expect(Number(response.headers.get("content-length"))).toBe(raw.length);
  });

  it("an unknown id is 404; the page for people links each message's raw source", async () => {
    expect((await fetch(`${catcher.apiUrl}/messages/999999/raw`)).status).toBe(404);
    expect((await fetch(`${catcher.apiUrl}/messages/abc/raw`)).status).toBe(404);
    expect(await (await fetch(`${catcher.apiUrl}/`)).text()).toMatch(/<a href="\/messages\/\d+\/raw">raw source<\/a>/);
  });
});
