/**
 * The one contract for a contact message, shared by the browser form, the Remix action and the
 * Deno function. Dependency-free on purpose: the app imports it as `#shared/contact-message.ts`
 * (package.json's imports) and Deno by relative path, as-is, so there is exactly one definition of the fields, their limits and the parser.
 */

/** The Edge Function the browser calls with `functions.invoke`. */
export const FUNCTION_NAME = "send-contact-email";

/**
 * One field of the message, described once: every layer reads its entry (docs/decisions/022 has the
 * recipe for adding one). `name` is the key in the JSON body, the form control's name, the key of its
 * label and placeholder in app/content.ts (`contactForm.labels`, `contactForm.placeholders`), and, in
 * snake_case (`columnOf`), its column in contact_enquiries. Every field is blank by the same rule
 * (`isBlank`): a blank required field is missing, a blank optional one is stored as "".
 */
export type FieldSpec = {
  readonly name: string;
  /** How error messages and the studio's mails name it. */
  readonly label: string;
  readonly required: boolean;
  /** The most characters a person sees (code points, as the table's char_length counts). */
  readonly limit: number;
  /** One line (an input; line breaks and every control character refused) or many (a textarea). */
  readonly lines: "one" | "many";
  /**
   * The control's autocomplete: an autofill token for what the browser knows of the visitor ("name",
   * "email", "tel"), or "off" for the message itself, which the browser then neither offers nor brings
   * back into the form on Back after a send without JavaScript (decision 027). Every field says which.
   */
  readonly autocomplete: string;
  /** The control's type (an input's; a textarea has none). */
  readonly inputType: "text" | "email" | "tel";
  /** A choice instead of text: the form shows a select of these, and nothing else is accepted. */
  readonly options?: readonly string[];
};

/**
 * The longest address, in its stored (ASCII) form: RFC 5321's 256-octet path less its angle brackets.
 * The local SMTP catcher takes it too (smtp-server alone stops at 253).
 */
export const MAX_EMAIL_LENGTH = 254;

/** The message's fields, in the form's order. */
export const FIELDS = [
  { name: "name", label: "Name", required: true, limit: 100, lines: "one", autocomplete: "name", inputType: "text" },
  { name: "email", label: "Email", required: true, limit: MAX_EMAIL_LENGTH, lines: "one", autocomplete: "email", inputType: "email" },
  { name: "projectTitle", label: "Project title", required: true, limit: 200, lines: "one", autocomplete: "off", inputType: "text" },
  { name: "projectDetails", label: "Project details", required: false, limit: 5000, lines: "many", autocomplete: "off", inputType: "text" },
] as const satisfies readonly FieldSpec[];

export type ContactField = (typeof FIELDS)[number]["name"];
/** What the browser sends: every field as text. */
export type ContactMessage = Record<ContactField, string>;

export const CONTACT_FIELDS: readonly ContactField[] = FIELDS.map((f) => f.name);
export const FIELD_SPECS = Object.fromEntries(FIELDS.map((f) => [f.name, f])) as Readonly<Record<ContactField, FieldSpec>>;
/**
 * Limits in characters a person sees, counted as Unicode code points (after trimming): the same count
 * as the database's char_length (tests/function/schema.test.ts proves each column's limit is this).
 */
export const FIELD_LIMITS = Object.fromEntries(FIELDS.map((f) => [f.name, f.limit])) as Readonly<Record<ContactField, number>>;
export const REQUIRED_FIELDS: readonly ContactField[] = FIELDS.filter((f) => f.required).map((f) => f.name);
/** A message with every field empty (a form before it is filled). */
export const emptyMessage = (): ContactMessage => Object.fromEntries(CONTACT_FIELDS.map((f) => [f, ""])) as ContactMessage;

/** Every field at its limit: the most characters (code points) a valid message holds. */
export const MAX_MESSAGE_CODE_POINTS = FIELDS.reduce((sum, field) => sum + field.limit, 0);
/** Room for what wraps the message: field names, quotes and separators, the form's own fields. */
export const ENVELOPE_BYTES = 2 * 1024;
/**
 * A request body larger than this is refused with 413 before it is parsed: the largest valid message
 * fits, whatever its characters (in JSON a code point takes at most 6 bytes: 4 in UTF-8, 6 for a
 * control escaped as \u00XX), and a new field's limit raises it by itself.
 */
export const MAX_BODY_BYTES = MAX_MESSAGE_CODE_POINTS * 6 + ENVELOPE_BYTES;

/**
 * Everything that is not the message itself travels in headers, so the JSON body is exactly the
 * message's fields (FIELDS). See docs/decisions/004-enquiry-headers-and-bots.md.
 */
export const ENQUIRY_HEADERS = {
  /** A UUID per submission attempt; the same key twice stores and mails once. */
  idempotencyKey: "idempotency-key",
  /** Milliseconds between the form appearing and its submission (bot check). */
  fillMs: "x-form-fill-ms",
  /** The value of the hidden honeypot field; people leave it empty. */
  trap: "x-form-trap",
} as const;

/**
 * The site's server (no-JS path) relays the visitor's address for rate limiting; the function
 * believes it only with the shared relay secret beside it.
 */
export const RELAY_HEADERS = { client: "x-enquiry-client", secret: "x-enquiry-relay-secret" } as const;

/**
 * The hidden form field the no-JS path posts (the browser path sends a header instead): the honeypot.
 * Nothing per request is in the page (docs/decisions/012): the no-JS path derives its idempotency key.
 */
export const FORM_META_FIELDS = {
  trap: "website",
} as const;

export type FieldErrors = Partial<Record<ContactField, string>>;

/**
 * Why a request was refused, where the cause is not the visitor's: the site logs it (the relay) or a
 * client can tell it apart (the same key for another message).
 */
export type ErrorCode = "relay-refused" | "idempotency-conflict" | "busy";

/** The typed answer of send-contact-email, carried as JSON in every response body. */
export type EnquiryResult =
  | { status: "ok"; id: string }
  | { status: "invalid"; fieldErrors: FieldErrors; message: string }
  | { status: "rate-limited"; retryAfterSeconds: number; message: string }
  /**
   * No longer sent (docs/decisions/031: a fast fill is stored, and only tightens the confirmation's
   * limits); an older function's answer, still understood by the site while both are deployed.
   */
  | { status: "too-fast"; message: string }
  | { status: "error"; message: string; code?: ErrorCode };

export type ParseResult = { ok: true; message: ContactMessage } | { ok: false; fieldErrors: FieldErrors };

/** A field's column in contact_enquiries: its name in snake_case (projectTitle: project_title). */
export const columnOf = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The length a person sees (code points), as the database's char_length counts. */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

// What mail systems deliver in practice (RFC 5321/5322 dot-atom, see docs/decisions/013): a local part
// of ASCII atext and single dots, at most 64 octets, that does not look like an RFC 2047 encoded word
// ("=?...?=", which a mail client would decode in the Reply-To); a domain of at least two labels, each
// 1-63 letters, digits or inner hyphens once in its ASCII (punycode) form; the whole address at most
// MAX_EMAIL_LENGTH. Quoted local parts, IP literals and comments are refused: people do not type them,
// and mail providers reject many of them.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const ENCODED_WORD_MARK = /=\?|\?=/;
const DOMAIN_LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;
const TOP_LABEL = /^(?!-)(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})(?<!-)$/;

/**
 * The address as it is stored and mailed: Unicode-normalised (NFC), its domain in lowercase ASCII
 * (punycode, through the URL parser every runtime has, which also maps fullwidth letters and drops
 * invisible characters as IDNA does). Null when a mail server would refuse it. What the visitor typed
 * and what is stored and sent are then the same address to every mail system, never two.
 */
export function normalizeEmail(address: string): string | null {
  const text = address.normalize("NFC");
  const at = text.lastIndexOf("@");
  if (at < 1 || at !== text.indexOf("@")) return null;
  const local = text.slice(0, at);
  if (local.length > 64 || !LOCAL_PART.test(local) || ENCODED_WORD_MARK.test(local)) return null;
  const domain = asciiDomain(text.slice(at + 1));
  if (!domain) return null;
  const labels = domain.split(".");
  if (labels.length < 2 || !labels.every((label) => DOMAIN_LABEL.test(label)) || !TOP_LABEL.test(labels.at(-1)!)) return null;
  const normalized = `${local}@${domain}`;
  return normalized.length <= MAX_EMAIL_LENGTH ? normalized : null;
}

/** Whether `address` is one a mail server will accept to deliver to. */
export function isDeliverableEmail(address: string): boolean {
  return normalizeEmail(address) !== null;
}

/** The domain in its ASCII (punycode) form, via the URL parser every runtime has; null when invalid. */
function asciiDomain(domain: string): string | null {
  if (domain === "" || /[\s/\\?#@:[\]%]/.test(domain) || domain.endsWith(".")) return null;
  try {
    const hostname = new URL(`http://${domain}`).hostname;
    // The parser lowercases and maps IDN to punycode; anything else changed means it was not a plain domain.
    return /^[a-z0-9.-]+$/.test(hostname) && !/^\d+(\.\d+){3}$/.test(hostname) && hostname.length <= 253 ? hostname : null;
  } catch {
    return null;
  }
}
// Half of a UTF-16 pair alone (JSON can write one: "\ud800"): no UTF-8 text holds it, so it would be
// stored as U+FFFD. Refused like a control character.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What a reader cannot see: controls, format characters (bidi overrides and isolates, zero-width
 * characters, the soft hyphen, tag characters, the BOM), private-use code points and noncharacters,
 * and the characters that draw nothing (the Hangul fillers, the Mongolian vowel separator, the blank
 * Braille pattern, the musical null notehead, the object replacement character).
 *
 * Only categories whose members never change between Unicode versions: a code point this runtime
 * does not know yet (unassigned, \p{Cn}) counts as readable, so the site's Node, the browser and the
 * edge runtime's older Deno decide alike, and a name in a script newer than the runtime is kept.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Noncharacter_Code_Point}\u115F\u1160\u3164\uFFA0\u180E\u2800\uFFFC\u{1D159}]/gu;
/** What is not something to read once cleaned: white space of any kind, and marks with nothing to sit on. */
const NOTHING_TO_READ = /^[\p{Z}\p{M}]*$/u;
/** Every way of ending a line: LF, CR, VT, FF, NEL and the Unicode line and paragraph separators. */
const LINE_BREAKS = /[\n\r\v\f\u0085\u2028\u2029]/;
// Controls: every one in a single-line field (a tab included); in the details, all but tab and LF.
/* eslint-disable no-control-regex -- matching control characters is the point (Deno's ignore must be the line above) */
// deno-lint-ignore no-control-regex -- the same, for deno lint
const CONTROL_CHARS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;
/* eslint-enable no-control-regex */
const SINGLE_LINE_CONTROL_CHARS = /\p{Cc}/u;

/**
 * Visitor text as a reader sees it, in every mail client: what cannot be seen (INVISIBLE) taken out,
 * runs of white space of any kind as one space. `lines: true` keeps line breaks (the details). The
 * mails show the visitor's fields through this, and the contract decides "empty" on it: one cleaning,
 * one meaning.
 */
export function neutralize(value: string, { lines = false } = {}): string {
  const visible = value.replace(INVISIBLE, (c) => (lines && c === "\n" ? c : c === "\t" || c === "\r" || c === "\n" ? " " : ""));
  return lines
    ? visible
        .split("\n")
        .map((line) => line.replace(/\p{Z}+/gu, " ").trimEnd())
        .join("\n")
    : visible.replace(/\p{Z}+/gu, " ").trim();
}

/**
 * A field is empty when a reader would see nothing in it: once cleaned (`neutralize`) all that is
 * left is white space of any kind and combining marks standing alone (a mark needs a letter to sit
 * on). A letter, digit, punctuation, symbol, or a character newer than this runtime, is something.
 */
export function isBlank(value: string, rule = { invisible: INVISIBLE, nothingToRead: NOTHING_TO_READ }): boolean {
  // `neutralize` then NOTHING_TO_READ, in one step. It names nothing outside itself (`rule` carries the
  // patterns), so the page's inline layer runs this same function (app/enquiry/form-layer.inline.ts).
  return rule.nothingToRead.test(value.replace(rule.invisible, ""));
}

/**
 * The patterns `isBlank` takes, as the page's inline script writes them (regular expression literals). A
 * function, not a constant: only the server writes it, and a constant's template would stay in the browser's bundle.
 */
export const blankRuleSource = () => `{ invisible: ${INVISIBLE}, nothingToRead: ${NOTHING_TO_READ} }`;

/**
 * A field's text in one form, whichever path it came through: a form post sends line breaks as CRLF,
 * a script's `textarea.value` as LF, and the same words may arrive composed or decomposed. So line
 * breaks are LF, the text is NFC, trimmed: the same message is the same text (stored, counted against
 * the limits, and recognised as already sent).
 */
function text(value: unknown): string {
  return typeof value === "string" ? value.replace(/\r\n?/g, "\n").normalize("NFC").trim() : "";
}

/** The spec's "second check" before sending: no required field is empty (`isBlank`). */
export function hasRequiredFields(values: Partial<Record<ContactField, unknown>>): boolean {
  return REQUIRED_FIELDS.every((field) => !isBlank(text(values[field])));
}

export function tooLongMessage(field: ContactField): string {
  return `${FIELD_SPECS[field].label} must be ${FIELD_LIMITS[field]} characters or fewer.`;
}

/** Validates unknown input into a ContactMessage (its address normalised: normalizeEmail); unknown fields are ignored. */
export function parseContactMessage(input: unknown): ParseResult {
  const source = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  const fieldErrors: FieldErrors = {};
  const message = {} as ContactMessage;

  for (const spec of FIELDS as readonly FieldSpec[]) {
    const { label, required, limit, lines, inputType, options } = spec;
    const field = spec.name as ContactField;
    const raw = source[field];
    if (raw !== undefined && raw !== null && typeof raw !== "string") {
      fieldErrors[field] = `${label} must be text.`;
      continue;
    }
    const value = text(raw);
    const singleLine = lines === "one";
    if (isBlank(value)) {
      // Nothing a reader would see: a required field is missing, an optional one is left out.
      message[field] = "";
      if (required) fieldErrors[field] = `${label} is required.`;
      continue;
    }
    message[field] = value;
    if (characterCount(value) > limit) {
      fieldErrors[field] = tooLongMessage(field);
    } else if (singleLine && LINE_BREAKS.test(value)) {
      fieldErrors[field] = `${label} must be a single line.`;
    } else if ((singleLine ? SINGLE_LINE_CONTROL_CHARS : CONTROL_CHARS).test(value) || LONE_SURROGATE.test(value)) {
      fieldErrors[field] = `${label} contains characters that are not allowed.`;
    } else if (options && !options.includes(value)) {
      fieldErrors[field] = `${label} must be one of its choices.`;
    } else if (inputType === "email") {
      const normalized = normalizeEmail(value);
      if (normalized === null) fieldErrors[field] = "Enter a valid email address, like name@example.com.";
      else message[field] = normalized;
    }
  }

  return Object.keys(fieldErrors).length > 0 ? { ok: false, fieldErrors } : { ok: true, message };
}

/** The first field (in form order) that has an error, for moving focus to it. */
export function firstInvalidField(fieldErrors: FieldErrors): ContactField | undefined {
  return CONTACT_FIELDS.find((field) => fieldErrors[field]);
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isIdempotencyKey(value: unknown): value is string {
  return typeof value === "string" && UUID_PATTERN.test(value);
}
