/**
 * Who the mails come from (docs/decisions/018). Every mail is sent from MAIL_FROM's address, an
 * address of the studio's own domain that only sends (website@, notifications@): a mail From and To
 * the studio's inbox is what forged mail looks like to a filter (SpamAssassin's TO_EQ_FM_* rules).
 * The studio's notification shows the visitor's name as the sender's name ("Maya Okafor via Lakeshore
 * Sound Studio"), so the inbox lists enquiries by who wrote them; replying goes to the visitor (Reply-To).
 */
import type { ConfigProblem } from "../_shared/config-checks.ts";
import { headerText, shorten } from "./emails.ts";
import { mailboxOf } from "./mailbox.ts";

/** A display name and an address, as in a From header ("mailbox" here means the account an address delivers to: mailbox.ts). */
export type NamedAddress = { name: string; address: string };

/** "Name <address>" or a bare address, as MAIL_FROM is written (config.ts checked the address). */
export function parseNamedAddress(value: string): NamedAddress {
  const angle = /^(.*?)\s*<([^<>]*)>\s*$/.exec(value.trim());
  if (!angle) return { name: "", address: value.trim() };
  return { name: angle[1]!.trim().replace(/^"(.*)"$/, "$1"), address: angle[2]!.trim() };
}

/** The longest sender name shown: inbox lists cut it anyway, and a long one looks like a subject line. */
const MAX_NAME = 64;

/**
 * A display name made from what a visitor typed: nothing invisible and no encoded word (headerText),
 * and none of the characters that structure an address header (quotes, angle brackets, "@", commas,
 * semicolons, colons, parentheses, brackets, backslashes), so it can only ever be a name, never
 * a second address or a look-alike of one ("support@bank.com <…>"). The mail library encodes the rest.
 */
export function safeDisplayName(value: string): string {
  // Compatibility forms first (NFKC): a fullwidth "＠" or "＜" or a small "﹫" is the character it imitates.
  const name = headerText(value.normalize("NFKC"))
    .replace(/["<>@,;:()[\]\\]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return shorten(name, MAX_NAME);
}

/** The notification's sender name: the visitor's, and whose website it came through. */
export function notificationSenderName(visitorName: string, studioName: string): string {
  const visitor = safeDisplayName(visitorName);
  const studio = safeDisplayName(studioName);
  return visitor ? `${visitor} via ${studio}` : studio;
}

/**
 * What hurts delivery without stopping it: reported at start and by /health, at warning level, never a
 * refusal (a studio that mails itself from its inbox still gets its enquiries, just less surely).
 */
export function senderWarnings(mailFrom: string, studioInbox: string): ConfigProblem[] {
  const { address } = parseNamedAddress(mailFrom);
  if (!address.includes("@") || !studioInbox.includes("@")) return [];
  if (mailboxOf(address.toLowerCase()) !== mailboxOf(studioInbox.toLowerCase())) return [];
  return [
    {
      variable: "MAIL_FROM",
      problem:
        `is the studio's inbox (${studioInbox}): a notification From and To the same address looks forged to spam filters ` +
        `(deliverability warning, mail is still sent); send from an address of its own on the same domain, ` +
        `e.g. website@${address.slice(address.lastIndexOf("@") + 1).toLowerCase()} (README, Mail)`,
    },
  ];
}
