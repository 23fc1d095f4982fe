// SpamAssassin (Debian's `spamassassin`) as the mail checks run it: local rules only (-L: no DNS, no
// network tests), the rules the package ships, nothing learnt. Plus the headers a message gains on its
// way from the provider to the studio's mail server, for the production-style score.
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";

/** Where Debian's package keeps its rules. sa-update's folder (/var/lib/spamassassin/<version>) is
 *  ignored on purpose: a failed update (no network) leaves it empty and SpamAssassin then finds no
 *  rules at all; and a check should score with the same rules on every machine. */
const PACKAGED_RULES = "/usr/share/spamassassin";

/** The `spamassassin` to run (SPAMASSASSIN_PATH, else the one on PATH), or undefined when there is none. */
export function findSpamAssassin(env = process.env) {
  if (env.SPAMASSASSIN_PATH) return existsSync(env.SPAMASSASSIN_PATH) ? env.SPAMASSASSIN_PATH : undefined;
  try {
    return execFileSync("sh", ["-c", "command -v spamassassin"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** @typedef {{ score: number, rules: { name: string, points: number, description: string }[] }} SpamScore */

/**
 * Scores one message (a Buffer or string, as sent). Returns `{ score, rules: [{ name, points,
 * description }] }`: every rule that fired, with its points.
 * @returns {Promise<SpamScore>}
 */
export async function spamScore(raw, binary = findSpamAssassin()) {
  const [scored] = await spamScores([raw], binary);
  return scored;
}

/**
 * Scores several messages in one run of SpamAssassin (an mbox of them): it loads its rules once, which
 * is most of a run's time (1.1 of 1.3 CPU-s for one message here). Returns each message's score and
 * rules, in order.
 * @param {(Buffer | string)[]} raws
 * @returns {Promise<SpamScore[]>}
 */
export async function spamScores(raws, binary = findSpamAssassin()) {
  if (!binary) throw new Error("spamassassin is not installed");
  if (raws.length === 0) return [];
  const args = ["-t", "-L", "--mbox", "-C", PACKAGED_RULES, "--cf=use_bayes 0", "--cf=bayes_auto_learn 0", "--cf=use_auto_welcomelist 0"];
  const child = spawn(binary, existsSync(PACKAGED_RULES) ? args : args.filter((a, i) => a !== "-C" && args[i - 1] !== "-C"), {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  // Bytes as they are, one character each (latin1): nothing decoded, no character split between chunks.
  child.stdout.setEncoding("latin1");
  child.stdout.on("data", (chunk) => (out += chunk));
  child.stderr.on("data", (chunk) => (err += chunk));
  child.stdin.end(Buffer.from(raws.map((raw, i) => `${separator(i)}\n${mboxMessage(raw)}\n`).join(""), "latin1"));
  await new Promise((resolve) => child.once("close", resolve));
  // Each message comes back after its own separator line, with its headers and report added (not
  // always in the order given).
  const parts = out.split(/^From spam-check-(\d+)@mbox\.invalid .*\n/m);
  const reports = new Map();
  for (let i = 1; i < parts.length; i += 2) reports.set(Number(parts[i]), parts[i + 1]);
  if (reports.size !== raws.length)
    throw new Error(`spamassassin scored ${reports.size} of ${raws.length} messages:\n${err || out.slice(0, 2000)}`);
  return raws.map((_, i) => parseReport(reports.get(i)));
}

/** The line that starts message `i` in an mbox, with a sender no message can contain. */
const separator = (i) => `From spam-check-${i}@mbox.invalid Thu Jan  1 00:00:00 1970`;
/**
 * SpamAssassin's own test for a line that starts the next message of an mbox (Mail::SpamAssassin::ArchiveIterator,
 * `opt_from_regex`). It un-quotes nothing, so only a line that would pass it is quoted (">From "): any other line is
 * scored as sent.
 */
const MBOX_SEPARATOR = /^From \S+ {1,2}(\S\S\S \S\S\S .?\d .?\d:\d\d:\d\d \d{4}|.?\d-\d\d-\d{4}_\d\d:\d\d:\d\d_)/gm;
/** The message's bytes (as latin1, one character each) as an mbox carries them: lines end in LF. */
const mboxMessage = (raw) => Buffer.from(raw).toString("latin1").replace(/\r\n/g, "\n").replace(MBOX_SEPARATOR, ">$&");

/** @param {string} out @returns {SpamScore} */
function parseReport(out) {
  const status = /^X-Spam-Status: .*?score=(-?[\d.]+)/m.exec(out);
  if (!status) throw new Error(`spamassassin gave no score:\n${out.slice(0, 2000)}`);
  // The report's table: " pts rule name              description", then one line per rule (and wrapped descriptions).
  const table = out.split(/^ *pts rule name +description\s*\n[- ]+\n/m)[1] ?? "";
  const rules = [...table.matchAll(/^ *(-?\d+(?:\.\d+)?) (\w+) +(.*)$/gm)].map(([, points, name, description]) => ({
    name,
    points: Number(points),
    description: description.trim(),
  }));
  return { score: Number(status[1]), rules };
}

/** "1.2 (FREEMAIL_FORGED_REPLYTO 1.2, HTML_MESSAGE 0.0)": a score with the rules that fired. */
export function describeScore({ score, rules }) {
  return `${score.toFixed(1)} (${rules.map((r) => `${r.name} ${r.points}`).join(", ") || "no rules"})`;
}

/**
 * The message as the studio's (or visitor's) mail server receives it from the provider: the envelope
 * sender on Resend's return-path subdomain (send.<domain>), and the one Received line the receiving
 * server adds for the provider's outbound relay (Amazon SES, which Resend sends through). Nothing that
 * needs DNS (SPF, DKIM) is claimed: those are the owner's DNS records (README), not the mail's.
 */
export function withProductionReceived(raw, { to, sendingDomain, date = new Date() }) {
  const stamp = date.toUTCString().replace("GMT", "+0000");
  const headers =
    `Return-Path: <010f019a6c2e4b1d-5e3f-4a7b-8c9d-0e1f2a3b4c5d-000000@send.${sendingDomain}>\r\n` +
    `Delivered-To: ${to}\r\n` +
    `Received: from a48-112.smtp-out.amazonses.com (a48-112.smtp-out.amazonses.com [54.240.48.112])\r\n` +
    `\tby mx1.mailhost.net (Postfix) with ESMTPS id 4dK8Qz3vLmz9sWd\r\n` +
    `\t(version=TLSv1.3 cipher=TLS_AES_256_GCM_SHA384 bits=256)\r\n` +
    `\tfor <${to}>; ${stamp}\r\n`;
  return Buffer.concat([Buffer.from(headers), Buffer.from(raw)]);
}
