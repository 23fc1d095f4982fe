// A real SMTP server that keeps every mail it receives, with a small HTTP API to read them:
//   GET /messages (JSON)   DELETE /messages   GET / (an HTML list for people)
import http from "node:http";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export async function startSmtpCatcher({ smtpPort, httpPort, host = "127.0.0.1" }) {
  const messages = [];
  const smtp = new SMTPServer({
    // Local only: no TLS certificate to trust, no login to configure.
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    size: 1024 * 1024,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push({
            id: messages.length + 1,
            receivedAt: new Date().toISOString(),
            envelope: { from: session.envelope.mailFrom?.address, to: session.envelope.rcptTo.map((r) => r.address) },
            from: mail.from?.text ?? "",
            to: mail.to?.text ?? "",
            replyTo: mail.replyTo?.text ?? "",
            subject: mail.subject ?? "",
            text: mail.text ?? "",
            html: typeof mail.html === "string" ? mail.html : "",
            headers: Object.fromEntries([...mail.headers].map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])),
          });
          callback();
        })
        .catch(callback);
    },
  });
  // A failed handshake must not take the catcher down.
  smtp.on("error", () => {});
  await new Promise((resolve, reject) => smtp.listen(smtpPort, host, resolve).once("error", reject));

  const api = http.createServer((req, res) => {
    if (req.url === "/messages" && req.method === "GET") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify(messages));
    }
    if (req.url === "/messages" && req.method === "DELETE") {
      messages.length = 0;
      res.writeHead(204);
      return res.end();
    }
    if (req.url === "/" && req.method === "GET") {
      const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
      const rows = messages
        .slice()
        .reverse()
        .map((m) => `<article><h2>${esc(m.subject)}</h2><p>To ${esc(m.to)} · Reply-To ${esc(m.replyTo)} · ${esc(m.receivedAt)}</p><pre>${esc(m.text)}</pre></article>`)
        .join("<hr>");
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'" });
      return res.end(`<!doctype html><meta charset="utf-8"><title>Caught mail (${messages.length})</title><style>body{font:15px system-ui;max-width:50rem;margin:2rem auto}pre{white-space:pre-wrap}</style><h1>Caught mail (${messages.length})</h1>${rows || "<p>No mail yet.</p>"}`);
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise((resolve, reject) => api.listen(httpPort, host, resolve).once("error", reject));

  return {
    messages,
    smtpPort,
    apiUrl: `http://${host}:${httpPort}`,
    async stop() {
      await Promise.all([new Promise((r) => smtp.close(r)), new Promise((r) => api.close(r))]);
    },
  };
}
