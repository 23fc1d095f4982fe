// Every refusal the site decides on reaches the visitor as its page, over a real socket, whatever the
// request's body is doing at that moment (complete, stalled, trickling, oversize with or without
// Content-Length); then the connection closes. Against the production server on the local stack.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_FORM_BYTES } from "~/enquiry/action.server";
import { startStack, type Stack } from "../../scripts/local-stack/stack.mjs";

let stack: Stack;
// The no-JS form's body must arrive within SERVER_REQUEST_TIMEOUT_MS less SERVER_HEADERS_TIMEOUT_MS: 2 s here.
const siteEnv = { SERVER_HEADERS_TIMEOUT_MS: "1000", SERVER_REQUEST_TIMEOUT_MS: "3000" };

beforeAll(async () => {
  stack = await startStack({ mail: "in-process", env: { site: siteEnv, function: { MIN_FILL_MS: "0", RATE_LIMIT_PER_CLIENT: "1" } } });
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

/** What the client does with the body after the request's head. */
type Body =
  | { kind: "complete"; text: string }
  /** Declares `declared` bytes in Content-Length, sends `text`, then nothing more. */
  | { kind: "stalled"; text: string; declared: number }
  /** Declares `declared` bytes, sends one byte every 100 ms, never reaching it. */
  | { kind: "trickling"; declared: number }
  /** Sends bytes as fast as the socket takes them, `declared` in Content-Length or chunked when null. */
  | { kind: "flood"; declared: number | null };

type Answer = {
  status: number;
  head: string;
  page: string;
  closedAfterMs: number;
  sentBytes: number;
  /** How the connection ended: "end" (the server's FIN, the answer whole), or the error a reset gives. */
  ending: string;
};

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const validForm = form({ name: "Ada Lovelace", email: "ada@example.com", projectTitle: "An album", projectDetails: "" });

/**
 * A POST to the form's action over a raw socket. Reads until the server closes the connection (or 15 s
 * pass); the client keeps sending its body as `body` says until then. `readsLate`: the client reads
 * nothing for its first second (a busy phone, a slow network), as the server may already be closing.
 */
function post(
  body: Body,
  headers: Record<string, string> = {},
  { readsLate = false, method = "POST", waitMs = 15_000 } = {},
): Promise<Answer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(stack.ports.site, "127.0.0.1");
    const chunks: Buffer[] = [];
    let sentBytes = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    const chunked = body.kind === "flood" && body.declared === null;
    const length = body.kind === "complete" ? Buffer.byteLength(body.text) : "declared" in body ? body.declared : null;
    const fields = {
      Host: `127.0.0.1:${stack.ports.site}`,
      "Content-Type": "application/x-www-form-urlencoded",
      ...(chunked ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(length) }),
      ...headers,
    };
    const head = [`${method} /?index HTTP/1.1`, ...Object.entries(fields).map(([name, value]) => `${name}: ${value}`), "", ""].join("\r\n");
    const send = (data: string | Buffer) => {
      if (socket.destroyed || !socket.writable) return false;
      sentBytes += Buffer.byteLength(data);
      return socket.write(data);
    };
    socket.on("connect", () => {
      if (readsLate) {
        socket.pause();
        setTimeout(() => socket.resume(), 1_000);
      }
      send(head);
      if (body.kind === "complete") send(body.text);
      else if (body.kind === "stalled") send(body.text);
      else if (body.kind === "trickling") timer = setInterval(() => send("a"), 100);
      else {
        const block = Buffer.alloc(16 * 1024, "a");
        const frame = Buffer.concat([Buffer.from("4000\r\n"), block, Buffer.from("\r\n")]);
        // Bounded: the declared length, or 64 MB chunked, whatever the server does.
        const limit = head.length + (body.declared ?? 64 * 1024 * 1024);
        const pump = () => {
          while (sentBytes < limit && send(chunked ? frame : block.subarray(0, Math.min(block.length, limit - sentBytes))));
        };
        socket.on("drain", pump);
        pump();
      }
    });
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    let ending = "";
    socket.on("end", () => (ending ||= "end"));
    // A reset: on a real network it can arrive before the client has read the page, which is then lost.
    socket.on("error", (error: NodeJS.ErrnoException) => (ending ||= error.code ?? error.message));
    socket.on("close", () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      const text = Buffer.concat(chunks).toString("utf8");
      const [headText = "", ...rest] = text.split("\r\n\r\n");
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headText)?.[1] ?? 0),
        head: headText,
        page: rest.join("\r\n\r\n"),
        closedAfterMs: Date.now() - started,
        sentBytes,
        ending,
      });
    });
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(
          `the server kept the connection open for ${waitMs} ms (answer so far: ${Buffer.concat(chunks).toString().slice(0, 200)})`,
        ),
      );
    }, waitMs);
  });
}

/** The page a visitor sees: the whole document, with the form's notice for a refused post. */
function expectRefusalPage(answer: Answer, status: number) {
  expect(answer.status, answer.head).toBe(status);
  expect(answer.head).toMatch(/^connection: close$/im);
  // The body arrives whole (chunked or with its length): the document ends.
  expect(answer.page).toContain("</html>");
  expect(answer.page).toMatch(/data-outcome="(refused|rate-limited)"/);
  // Closed with the server's end, not a reset, even while the client was still sending.
  expect(answer.ending).toBe("end");
}

const oversize = MAX_FORM_BYTES + 1;
const otherSite = { Origin: "https://elsewhere.example", "Sec-Fetch-Site": "cross-site" };

describe("a refusal decided before the body is read reaches the visitor, whatever the body does", () => {
  const bodies: Body[] = [
    { kind: "complete", text: validForm },
    { kind: "stalled", text: "name=Ad", declared: 500 },
    { kind: "trickling", declared: 5_000 },
    { kind: "flood", declared: 10 * oversize },
    { kind: "flood", declared: null },
  ];
  for (const body of bodies) {
    const label = `${body.kind}${"declared" in body ? ` (${body.declared === null ? "chunked" : `Content-Length ${body.declared}`})` : ""}`;
    it(`403 for another site's post, body ${label}`, async () => {
      expectRefusalPage(await post(body, otherSite), 403);
    });
    it(`415 for a body that is not a form, body ${label}`, async () => {
      expectRefusalPage(await post(body, { "Content-Type": "text/plain" }), 415);
    });
    if (body.kind === "flood") {
      it(`415, body ${label}, to a client that reads only after a second`, async () => {
        expectRefusalPage(await post(body, { "Content-Type": "text/plain" }, { readsLate: true }), 415);
      });
    }
  }
});

describe("a refusal decided while the body arrives reaches the visitor", () => {
  it("413 when Content-Length says the body is too large, as the client goes on sending it", async () => {
    expectRefusalPage(await post({ kind: "flood", declared: oversize }), 413);
  });
  it("413 when a chunked body grows past the limit, as the client goes on sending it", async () => {
    expectRefusalPage(await post({ kind: "flood", declared: null }), 413);
    expectRefusalPage(await post({ kind: "flood", declared: null }, {}, { readsLate: true }), 413);
  });
  it("408 when the body stops arriving", async () => {
    const answer = await post({ kind: "stalled", text: "name=Ad", declared: 500 });
    expectRefusalPage(answer, 408);
    expect(answer.closedAfterMs).toBeLessThan(6_000);
  });
  it("408 when the body trickles slower than the time it has", async () => {
    const answer = await post({ kind: "trickling", declared: 5_000 });
    expectRefusalPage(answer, 408);
    expect(answer.closedAfterMs).toBeLessThan(6_000);
  });
});

/** Sends `bytes` as they are, then (with `flood`) 16 KiB blocks up to 8 MB; reads until the server closes. */
function exchange(bytes: string, { flood = false, readsLate = false } = {}): Promise<Omit<Answer, "sentBytes" | "closedAfterMs">> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(stack.ports.site, "127.0.0.1");
    const chunks: Buffer[] = [];
    let ending = "";
    socket.on("connect", () => {
      if (readsLate) {
        socket.pause();
        setTimeout(() => socket.resume(), 1_000);
      }
      socket.write(bytes);
      if (!flood) return;
      let sent = 0;
      const block = Buffer.alloc(16 * 1024, "a");
      const pump = () => {
        while (sent < 8 * 1024 * 1024 && !socket.destroyed && socket.write(block)) sent += block.length;
      };
      socket.on("drain", pump);
      pump();
    });
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => (ending ||= "end"));
    socket.on("error", (error: NodeJS.ErrnoException) => (ending ||= error.code ?? error.message));
    const giveUp = setTimeout(() => (socket.destroy(), reject(new Error("the server kept the connection open for 15 s"))), 15_000);
    socket.on("close", () => {
      clearTimeout(giveUp);
      const text = Buffer.concat(chunks).toString("utf8");
      const [head = "", ...rest] = text.split("\r\n\r\n");
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), head, page: rest.join("\r\n\r\n"), ending });
    });
  });
}

describe("what Node's HTTP parser refuses itself", () => {
  const start = "POST /?index HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n";
  const malformed: [string, string][] = [
    ["a chunk size that is not hex", `${start}Transfer-Encoding: chunked\r\n\r\nzz\r\n`],
    ["a negative chunk size", `${start}Transfer-Encoding: chunked\r\n\r\n-1\r\n`],
    ["a chunk size too large for any number", `${start}Transfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n`],
    ["both Content-Length and chunked", `${start}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n`],
    ["two different lengths", `${start}Content-Length: 5\r\nContent-Length: 6\r\n\r\n`],
    ["a length that is not a number", `${start}Content-Length: 5x\r\n\r\n`],
    ["a malformed header line", `${start}Bad Header\r\n\r\n`],
  ];
  for (const [what, bytes] of malformed) {
    it(`answers ${what} with a 400 page and a clean close, to a client that goes on sending and reads late`, async () => {
      const answer = await exchange(bytes, { flood: true, readsLate: true });
      expect(answer.status, answer.head).toBe(400);
      expect(answer.head).toMatch(/^connection: close$/im);
      expect(answer.page).toContain("</html>");
      expect(answer.ending).toBe("end");
    });
  }

  it("a bad chunk in a body no page reads (a GET's) closes that connection and the server goes on serving", async () => {
    const answer = await exchange("GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", { flood: true });
    expect(answer.ending).toBe("end");
    expect((await exchange("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).status).toBe(200);
  });

  it("an HTTP/1.0 post without a length: the answer to it arrives before the connection closes on its unreadable rest", async () => {
    const answer = await exchange(
      `POST /?index HTTP/1.0\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\nname=Ada&email=a`,
    );
    expect(answer.status, answer.head).toBe(400);
    expect(answer.page).toContain('data-outcome="refused"');
    expect(answer.ending).toBe("end");
  });
});

describe("Expect: 100-continue", () => {
  const head = (length: number) =>
    `POST /?index HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`;
  it("a body larger than the site reads is refused (413) without being asked for", async () => {
    const answer = await exchange(head(MAX_FORM_BYTES + 1));
    expect(answer.head).not.toMatch(/100 Continue/);
    expect(answer.status, answer.head).toBe(413);
  });
  it("a body the site can read is asked for", async () => {
    const answer = await exchange(`${head(5)}name=`);
    expect(answer.head).toMatch(/^HTTP\/1\.1 100 Continue/);
  });
});

describe("a method the site does not serve", () => {
  it("gets 405 at the front door while its body still arrives, then the connection closes without a reset", async () => {
    const answer = await post({ kind: "flood", declared: null }, {}, { method: "PUT", readsLate: true });
    expect(answer.status, answer.head).toBe(405);
    expect(answer.head).toMatch(/^connection: close$/im);
    expect(answer.ending).toBe("end");
  });
});

describe("a refusal decided on a complete body reaches the visitor", () => {
  it("400 for an empty form", async () => {
    expectRefusalPage(await post({ kind: "complete", text: "" }), 400);
  });
  it("400 for a form that is not UTF-8", async () => {
    expectRefusalPage(await post({ kind: "complete", text: "name=%FF%FE&email=a%40b.example&projectTitle=x" }), 400);
  });
  it("429 for a sender over its limit (one enquiry here)", async () => {
    const first = await post({ kind: "complete", text: validForm }, { Connection: "close" });
    expect(first.status, "sent: on to the result page").toBe(303);
    const second = await post({ kind: "complete", text: form({ name: "Ada", email: "ada@example.com", projectTitle: "Another album" }) });
    expectRefusalPage(second, 429);
  });
});

// Last: the post it holds is stored once the function runs again, and counts against the sender's limit.
describe("a function that stops answering", () => {
  it("the no-JS post gets the failure page when the site gives up on it (15 s), and the site goes on serving", async () => {
    const pid = (stack.fn as unknown as { child: { pid: number } }).child.pid;
    process.kill(pid, "SIGSTOP");
    try {
      const answer = await post(
        { kind: "complete", text: form({ name: "Grace", email: "grace@example.com", projectTitle: "A single" }) },
        { Connection: "close" },
        { waitMs: 30_000 },
      );
      expect(answer.status, answer.head).toBe(502);
      expect(answer.page).toContain('data-outcome="failed"');
    } finally {
      process.kill(pid, "SIGCONT");
    }
    expect((await exchange("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).status).toBe(200);
  }, 60_000);
});
