// Starts a throw-away PostgreSQL 15 server (Debian's binaries) with the migrations applied.
// The server refuses to run as root, so as root it runs as the `postgres` system user.
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrate } from "./migrate.mjs";
import { freePort } from "./ports.mjs";

export const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";

export async function startPostgres({ port } = {}) {
  if (!existsSync(path.join(PG_BIN, "initdb"))) {
    throw new Error(`PostgreSQL 15 server not found in ${PG_BIN}: run scripts/setup.sh (apt-get install postgresql-15)`);
  }
  port ??= await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "studio-pg-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, uid("postgres"), gid("postgres"));
  const run = (cmd, args) => {
    const [file, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", path.join(PG_BIN, cmd), ...args]] : [path.join(PG_BIN, cmd), args];
    const result = spawnSync(file, argv, { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`${cmd} failed: ${result.stderr || result.stdout}`);
  };
  run("initdb", ["-D", `${dir}/data`, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"]);
  run("pg_ctl", [
    "-D", `${dir}/data`, "-l", `${dir}/server.log`, "-w", "-t", "30",
    "-o", `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c max_connections=200`,
    "start",
  ]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await migrate(url);

  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run("pg_ctl", ["-D", `${dir}/data`, "-m", "fast", "-w", "stop"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  /** Stops the server but keeps its data, for "database down" tests; `resume` starts it again. */
  const pause = () => run("pg_ctl", ["-D", `${dir}/data`, "-m", "fast", "-w", "stop"]);
  const resume = () =>
    run("pg_ctl", ["-D", `${dir}/data`, "-l", `${dir}/server.log`, "-w", "-t", "30",
      "-o", `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c max_connections=200`, "start"]);
  return { url, port, stop, pause, resume };
}

function uid(user) {
  return Number(execFileSync("id", ["-u", user], { encoding: "utf8" }).trim());
}
function gid(user) {
  return Number(execFileSync("id", ["-g", user], { encoding: "utf8" }).trim());
}
