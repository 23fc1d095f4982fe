// A real SMTP server that keeps every mail it receives, with a small HTTP API to read them.
// Like a real mail server it refuses recipients that do not exist: any address at REJECTED_DOMAIN gets
// "550 5.1.1 no such user" (permanent), so tests can prove how the function treats a permanent refusal.
//   GET /messages (JSON)   GET /messages/count   DELETE /messages   GET / (an HTML list for people)
//   GET /messages/<id>/raw: one message as it came over the wire (message/rfc822, the bytes as received,
//   as Mailpit's /api/v1/message/<id>/raw), for a spam filter or a validator to read what was sent
// With a folder (`npm run stack`: .stack/db/mail), every mail is also kept there as it arrives (<id>.eml,
// the bytes as received, and <id>.json, its envelope), and read back at start: what was caught survives
// a restart of the catcher, as the database's rows do. Without one, mail lives in memory only.
// Run on its own (`npm run stack` does, so that nothing the catcher does, or a pause of it, can slow
// the process that reads the function's output):
//   node scripts/local-stack/smtp-catcher.mjs <smtpPort> <httpPort> [folder]
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { domainToASCII } from "node:url";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export const REJECTED_DOMAIN = "rejected.example";

/**
 * RFC 5321's longest path: 256 octets with its angle brackets, so 254 for the address, the limit the
 * contract accepts (MAX_EMAIL_LENGTH). smtp-server's strict parsing stops at 253, so the catcher parses
 * leniently and checks the length (in ASCII, as sent) and the shape itself.
 */
const MAX_PATH_ADDRESS = 254;
function addressRefusal(address) {
  if (address === "") return null; // the null sender of a bounce (MAIL FROM:<>)
  const at = address.lastIndexOf("@");
  const domain = at > 0 ? domainToASCII(address.slice(at + 1)) : "";
  const local = address.slice(0, at);
  if (!domain || local.length > 64 || /^\.|\.$|\.\./.test(local) || local.length + 1 + domain.length > MAX_PATH_ADDRESS) {
    return Object.assign(new Error("5.1.3 Bad address syntax"), { responseCode: 501 });
  }
  return null;
}

/**
 * The mail kept in `dir`, oldest first. A message whose envelope was not written yet is left out; one
 * whose files cannot be read (cut short by a full disk, say) is left out with a line naming it, so the
 * catcher still starts.
 */
function readKept(dir) {
  const names = readdirSync(dir)
    .map((file) => /^(\d+)\.json$/.exec(file)?.[1])
    .filter((name) => name !== undefined)
    .sort((a, b) => Number(a) - Number(b));
  return names.flatMap((name) => {
    const files = path.join(dir, name);
    try {
      // The id is the file's name: what numbers the next mail, whatever the envelope says.
      return [{ ...JSON.parse(readFileSync(`${files}.json`, "utf8")), id: Number(name), raw: readFileSync(`${files}.eml`) }];
    } catch (error) {
      console.error(`smtp-catcher: left out the kept message ${files}.json/.eml, which cannot be read: ${error.message}`);
      return [];
    }
  });
}

/**
 * @param {{ smtpPort: number, httpPort: number, host?: string, dir?: string }} options `dir`: where to keep
 *   the mail (read back at start); without it, in memory only
 */
export async function startSmtpCatcher({ smtpPort, httpPort, host = "127.0.0.1", dir = undefined }) {
  if (dir) mkdirSync(dir, { recursive: true });
  // Raw mail is kept at once and parsed only when read, so catching stays cheap under load.
  const messages = dir ? readKept(dir) : [];
  const parsed = new Map();
  /**
   * Keeps a message: in the folder (the raw bytes first, then the envelope that lists it, whole or not at
   * all: written aside and renamed), then in memory. Throws when the folder cannot take it.
   */
  const keep = (message) => {
    if (dir) {
      const { raw, ...envelope } = message;
      const files = path.join(dir, String(message.id));
      try {
        writeFileSync(`${files}.eml`, raw);
        writeFileSync(`${files}.json.part`, JSON.stringify(envelope));
        renameSync(`${files}.json.part`, `${files}.json`);
      } catch (error) {
        // What was written of it would only take the space a full disk needs back.
        for (const file of [`${files}.eml`, `${files}.json.part`]) rmSync(file, { force: true });
        throw error;
      }
    }
    messages.push(message);
  };
  const clear = () => {
    messages.length = 0;
    parsed.clear();
    if (dir)
      for (const file of readdirSync(dir)) if (/^\d+\.(eml|json|json\.part)$/.test(file)) rmSync(path.join(dir, file), { force: true });
  };
  async function read() {
    return Promise.all(
      messages.map(async (m) => {
        if (!parsed.has(m.id)) {
          const mail = await simpleParser(m.raw);
          parsed.set(m.id, {
            id: m.id,
            receivedAt: m.receivedAt,
            envelope: m.envelope,
            from: mail.from?.text ?? "",
            to: mail.to?.text ?? "",
            replyTo: mail.replyTo?.text ?? "",
            subject: mail.subject ?? "",
            text: mail.text ?? "",
            html: typeof mail.html === "string" ? mail.html : "",
            headers: Object.fromEntries([...mail.headers].map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])),
            // The header block as it came over the wire (the parsed fields above are decoded: IDN, encoded words).
            rawHeaders: m.raw.toString("latin1").split(/\r?\n\r?\n/, 1)[0],
          });
        }
        return parsed.get(m.id);
      }),
    );
  }
  let nextId = (messages.at(-1)?.id ?? 0) + 1;
  const smtp = new SMTPServer({
    // Local only: no TLS certificate to trust, no login to configure.
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    size: 1024 * 1024,
    lenientAddressParsing: true,
    onMailFrom(address, session, callback) {
      callback(addressRefusal(address.address) ?? undefined);
    },
    onRcptTo(address, session, callback) {
      const refusal = addressRefusal(address.address);
      if (refusal) return callback(refusal);
      if (address.address.toLowerCase().endsWith(`@${REJECTED_DOMAIN}`)) {
        const error = Object.assign(new Error("5.1.1 no such user"), { responseCode: 550 });
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks = [];
      stream.on("data", (chunk) => chunks.push(chunk));
      stream.on("error", callback);
      stream.on("end", () => {
        try {
          keep({
            id: nextId++,
            receivedAt: new Date().toISOString(),
            envelope: { from: session.envelope.mailFrom?.address, to: session.envelope.rcptTo.map((r) => r.address) },
            raw: Buffer.concat(chunks),
          });
        } catch (error) {
          // A folder that cannot take the mail (full, removed, not writable) is a mail server's local
          // error: a temporary refusal, which the sender tries again later; the catcher stays up.
          console.error(`smtp-catcher: could not keep a message in ${dir}: ${error.message}`);
          return callback(Object.assign(new Error("4.3.0 cannot keep the message now, try again later"), { responseCode: 451 }));
        }
        callback();
      });
    },
  });
  // A failed handshake must not take the catcher down.
  smtp.on("error", () => {});
  await new Promise((resolve, reject) => smtp.listen(smtpPort, host, resolve).once("error", reject));

  const api = http.createServer(async (req, res) => {
    if (req.url === "/messages" && req.method === "GET") {
      const all = await read();
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify(all));
    }
    const raw = /^\/messages\/(\d+)\/raw$/.exec(req.url ?? "");
    if (raw && req.method === "GET") {
      const message = messages.find((m) => m.id === Number(raw[1]));
      if (!message) {
        res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
        return res.end(`no message ${raw[1]}\n`);
      }
      res.writeHead(200, {
        "content-type": "message/rfc822",
        "content-length": message.raw.length,
        "content-disposition": `inline; filename="message-${message.id}.eml"`,
      });
      return res.end(message.raw);
    }
    if (req.url === "/messages/count" && req.method === "GET") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({ count: messages.length }));
    }
    if (req.url === "/messages" && req.method === "DELETE") {
      clear();
      res.writeHead(204);
      return res.end();
    }
    if (req.url === "/" && req.method === "GET") {
      const all = await read();
      const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
      const rows = all
        .slice()
        .reverse()
        .map(
          (m) =>
            `<article><h2>${esc(m.subject)}</h2><p>From ${esc(m.from)} · To ${esc(m.to)} · Reply-To ${esc(m.replyTo)} · ${esc(m.receivedAt)} · <a href="/messages/${m.id}/raw">raw source</a></p><pre>${esc(m.text)}</pre></article>`,
        )
        .join("<hr>");
      res.writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
      });
      return res.end(
        `<!doctype html><meta charset="utf-8"><title>Caught mail (${all.length})</title><style>body{font:15px system-ui;max-width:50rem;margin:2rem auto}pre{white-space:pre-wrap}</style><h1>Caught mail (${all.length})</h1>${rows || "<p>No mail yet.</p>"}`,
      );
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise((resolve, reject) => api.listen(httpPort, host, resolve).once("error", reject));

  return {
    /** How many mails were caught so far (cheap: nothing is parsed). */
    async count() {
      return messages.length;
    },
    async clear() {
      clear();
    },
    /** Every caught mail, parsed. */
    read,
    smtpPort,
    apiUrl: `http://${host}:${httpPort}`,
    async stop() {
      await Promise.all([new Promise((r) => smtp.close(r)), new Promise((r) => api.close(r))]);
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [smtpPort, httpPort] = process.argv.slice(2, 4).map(Number);
  const catcher = await startSmtpCatcher({ smtpPort, httpPort, dir: process.argv[4] });
  process.once("SIGTERM", () => catcher.stop().then(() => process.exit(0)));
}
