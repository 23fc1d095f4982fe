// The redelivery schedule where pg_cron is not installed (the local stack): what the baseline
// migration's pg_cron job does in production, from this process. The same call: POST to the function's
// /redeliver, with the redelivery secret in x-redelivery-secret and the body {}, an answer awaited for at
// most 60 s. The period is the stack's (a minute by default, shorter in tests). The function says it
// runs in /health (redelivery.localSchedule) because the stack gives it LOCAL_REDELIVERY_EVERY_SECONDS.

/** How often the local stack asks for redelivery unless told otherwise. */
export const LOCAL_REDELIVERY_EVERY_SECONDS = 60;
/** As the production job's pg_net call waits (timeout_milliseconds in the baseline migration). */
const ANSWER_TIMEOUT_MS = 60_000;
/** The header /redeliver reads the secret from (REDELIVERY_SECRET_HEADER in the function's wrong-secrets.ts; tests/stack holds them equal). */
export const REDELIVERY_SECRET_HEADER = "x-redelivery-secret";

/**
 * Calls `${functionUrl}/redeliver` every `everySeconds`; one call at a time (a run that outlasts the
 * period is not doubled: the function's lease would turn the second away anyway). Lines for `log` only
 * when a run did something or failed, so an idle stack stays quiet.
 * @param {{ functionUrl: string, secret: string, everySeconds: number, log: (line: string) => void }} options
 */
export function startRedeliverySchedule({ functionUrl, secret, everySeconds, log }) {
  let busy = false;
  let stopped = false;
  const run = async () => {
    if (busy || stopped) return;
    busy = true;
    try {
      const response = await fetch(`${functionUrl}/redeliver`, {
        method: "POST",
        headers: { "content-type": "application/json", [REDELIVERY_SECRET_HEADER]: secret },
        body: "{}",
        signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
      });
      const report = await response.json().catch(() => ({}));
      if (!response.ok) log(`scheduled redelivery: ${response.status} ${report.message ?? ""}`.trim());
      else if (report.sent || report.failed || report.dead || report.digested || report.released)
        log(
          `scheduled redelivery: ${report.sent} sent, ${report.failed} failed, ${report.dead} given up, ` +
            `${report.digested} in a digest, ${report.released} released; ${report.waitingTotal} waiting`,
        );
    } catch (error) {
      // A call cut short by the stack stopping is no news.
      if (!stopped) log(`scheduled redelivery: no answer from the function (${error?.message ?? error})`);
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(run, everySeconds * 1000);
  return {
    everySeconds,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
