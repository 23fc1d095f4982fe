// `npm run mail:preview [-- DIR]`: every mail the function sends (notification, confirmation, digest),
// for realistic and hostile sample enquiries (samples.ts), as an owner's mail client would get it:
// sent through the function's own code to the real SMTP catcher and read back byte for byte. Writes
// into DIR (default artifacts/mail-preview/), per mail: <type>--<sample>.eml (open it in any mail
// client), .html (its HTML part, for a browser) and .txt (its plain-text part), and index.html.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import { ROOT } from "../local-stack/processes.mjs";
import { captureSampleMail } from "./capture.mjs";

export const PREVIEW_DIR = path.join(ROOT, "artifacts/mail-preview");

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Writes each mail's files into `dir`; returns the mails with `parsed` (mailparser's view) and the
 * paths written (`eml`, `html`, `txt`).
 */
export async function writeMailPreview(mails, dir = PREVIEW_DIR) {
  mkdirSync(dir, { recursive: true });
  const written = [];
  for (const mail of mails) {
    const parsed = await simpleParser(mail.raw);
    const base = path.join(dir, `${mail.type}--${mail.sample}`);
    const files = { eml: `${base}.eml`, html: `${base}.html`, txt: `${base}.txt` };
    writeFileSync(files.eml, mail.raw);
    writeFileSync(files.html, typeof parsed.html === "string" ? parsed.html : "");
    writeFileSync(files.txt, parsed.text ?? "");
    written.push({ ...mail, parsed, files });
  }
  const rows = written
    .map(
      (m) =>
        `<tr><td>${esc(m.type)}</td><td>${esc(m.sample)}</td><td>${esc(m.parsed.from?.text ?? "")}</td><td>${esc(m.parsed.subject ?? "")}</td>` +
        `<td><a href="${esc(path.basename(m.files.eml))}">.eml</a> · <a href="${esc(path.basename(m.files.html))}">HTML</a> · <a href="${esc(path.basename(m.files.txt))}">text</a></td></tr>`,
    )
    .join("\n");
  writeFileSync(
    path.join(dir, "index.html"),
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Mail preview (${written.length})</title>` +
      `<style>body{font:15px system-ui;margin:2rem}td,th{padding:4px 8px;text-align:left;border-bottom:1px solid #ddd}</style></head><body>` +
      `<h1>Mail preview</h1><p>Every mail the function sends, for each sample enquiry (scripts/mail/samples.ts). Open an .eml in a mail client to see it as the studio or the visitor would.</p>` +
      `<table><thead><tr><th>Mail</th><th>Sample</th><th>From</th><th>Subject</th><th>Files</th></tr></thead><tbody>\n${rows}\n</tbody></table></body></html>\n`,
  );
  return written;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = path.resolve(process.argv[2] ?? PREVIEW_DIR);
  const written = await writeMailPreview(await captureSampleMail(), dir);
  for (const m of written) console.log(`${m.type.padEnd(13)} ${m.sample.padEnd(26)} ${path.relative(process.cwd(), m.files.eml)}`);
  console.log(`\n${written.length} mails in ${path.relative(process.cwd(), dir) || "."}/ (open index.html, or an .eml in a mail client)`);
}
