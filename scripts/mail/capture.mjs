// Real mail from the function's own code, as it leaves it: starts the real SMTP catcher, runs
// send-samples.ts under Deno with the function's flags (every mail type for every sample enquiry),
// and reads each mail back from the catcher's raw route, byte for byte.
import { spawn } from "node:child_process";
import { DENO, denoEnv, FUNCTION_FLAGS } from "../local-stack/deno.mjs";
import { freePort } from "../local-stack/ports.mjs";
import { ROOT } from "../local-stack/processes.mjs";
import { startSmtpCatcher } from "../local-stack/smtp-catcher.mjs";

/**
 * The studio the checks send as: a real-looking domain (not a documentation one), configured as the
 * README tells an owner to: the sender an address of its own on the studio's domain, not the inbox.
 */
export const CHECK_STUDIO = Object.freeze({
  STUDIO_NAME: "Lakeshore Sound Studio",
  STUDIO_INBOX: "bookings@lakeshoresound.ca",
  MAIL_FROM: "Lakeshore Sound Studio <website@lakeshoresound.ca>",
});

/**
 * Returns `[{ key, type, sample, realistic, raw }]` (raw: a Buffer, the message as received), in the
 * order sent. `env` changes the function's variables (e.g. another MAIL_FROM).
 */
export async function captureSampleMail(env = {}) {
  const catcher = await startSmtpCatcher({ smtpPort: await freePort(), httpPort: await freePort() });
  try {
    const child = spawn(DENO, ["run", ...FUNCTION_FLAGS, "scripts/mail/send-samples.ts"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: denoEnv({
        MAIL_TRANSPORT: "smtp",
        SMTP_HOST: "127.0.0.1",
        SMTP_PORT: String(catcher.smtpPort),
        ...CHECK_STUDIO,
        ...env,
      }),
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    if (code !== 0) throw new Error(`send-samples.ts exited ${code}:\n${stderr}`);
    const sent = stdout
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const caught = await (await fetch(`${catcher.apiUrl}/messages`)).json();
    return await Promise.all(
      sent.map(async (mail) => {
        const found = caught.find((m) => m.headers["x-delivery-key"] === mail.key);
        if (!found) throw new Error(`the catcher has no mail with X-Delivery-Key ${mail.key}`);
        const response = await fetch(`${catcher.apiUrl}/messages/${found.id}/raw`);
        return { ...mail, raw: Buffer.from(await response.arrayBuffer()) };
      }),
    );
  } finally {
    await catcher.stop();
  }
}
