// Where `npm run stack` keeps what it keeps between runs: all of it inside its data folder (STACK_DB_DIR,
// .stack/db by default), so two stacks never share a file, wherever their folders are (two fresh folders
// in the system's temporary directory share that directory, not a `mail` folder in it:
// docs/decisions/032). PostgreSQL's own files sit at the top of the folder; it ignores the rest.
import path from "node:path";
import { ROOT } from "./processes.mjs";

/** @param {Record<string, string | undefined>} env */
export function stackFolders(env) {
  // Where the database keeps its data between runs; `--fresh` starts it empty.
  const dataDir = path.resolve(ROOT, env.STACK_DB_DIR || ".stack/db");
  return {
    dataDir,
    // Caught mail (STACK_MAIL_DIR to put it elsewhere): mail survives a restart as rows do.
    mailDir: path.resolve(ROOT, env.STACK_MAIL_DIR || path.join(dataDir, "mail")),
    // Each part's output, written by the part itself (stack.mjs).
    logDir: path.join(dataDir, "logs"),
    // The processes of the run now going, for the next start if this one is killed (run-record.mjs).
    runRecord: path.join(dataDir, "stack-run.json"),
  };
}
