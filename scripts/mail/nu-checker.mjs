// The Nu HTML checker (npm `vnu-jar`, run with Java) on files: one JVM for all of them.
import { execFile, execFileSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The `java` to run (JAVA, else the one on PATH), or undefined when there is none. */
export function findJava(env = process.env) {
  try {
    const java = env.JAVA || "java";
    execFileSync(java, ["-version"], { stdio: "ignore" });
    return java;
  } catch {
    return undefined;
  }
}

/**
 * Checks each HTML file; returns `[{ file, type: "error" | "info", subType?, message, line? }]`,
 * warnings included (an info with subType "warning"). An empty list: valid, nothing to remark.
 */
export async function nuCheck(files, java = findJava()) {
  if (!java) throw new Error("java is not installed");
  const jar = require("vnu-jar");
  const output = await new Promise((resolve, reject) =>
    // vnu exits 1 when it finds errors; its report (JSON on stderr) is the answer either way.
    execFile(java, ["-jar", jar, "--format", "json", ...files], { maxBuffer: 16 * 1024 * 1024 }, (error, _stdout, stderr) => {
      if (error && !stderr.trim().startsWith("{")) reject(error);
      else resolve(stderr);
    }),
  );
  return JSON.parse(output).messages.map((m) => ({
    file: decodeURIComponent(String(m.url ?? "").replace(/^file:/, "")),
    type: m.type,
    subType: m.subType,
    message: m.message,
    line: m.lastLine,
  }));
}
