/**
 * An application/x-www-form-urlencoded body, decoded strictly. The platform's own parsers (FormData,
 * URLSearchParams) replace bytes that are not UTF-8 with U+FFFD, so a mangled post would be stored as
 * if the visitor had typed it; here such a field reads as null and the post is refused.
 */
export type FormBody = {
  /** Whether the field was sent with anything in it (its bytes are not decoded). */
  filled(name: string): boolean;
  /** The field's text (the first one of that name), "" when absent, null when it is not UTF-8. */
  text(name: string): string | null;
};

const utf8 = new TextDecoder("utf-8", { fatal: true });

export function decodeFormBody(body: Uint8Array): FormBody {
  const fields = new Map<string, Uint8Array>();
  for (const pair of Buffer.from(body).toString("latin1").split("&")) {
    if (pair === "") continue;
    const at = pair.indexOf("=");
    const name = percentDecode(at === -1 ? pair : pair.slice(0, at));
    const value = percentDecode(at === -1 ? "" : pair.slice(at + 1));
    const key = decodeOrNull(name);
    if (key !== null && !fields.has(key)) fields.set(key, value);
  }
  return {
    filled: (name) => (fields.get(name)?.byteLength ?? 0) > 0,
    text: (name) => {
      const bytes = fields.get(name);
      return bytes ? decodeOrNull(bytes) : "";
    },
  };
}

/** Percent-decodes the (latin1-read) text to bytes; "+" is a space. A malformed escape stays as it is. */
function percentDecode(text: string): Uint8Array {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2b) bytes.push(0x20);
    else if (c === 0x25 && /^[0-9a-f]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(c);
  }
  return Uint8Array.from(bytes);
}

function decodeOrNull(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}
