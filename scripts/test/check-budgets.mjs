// Byte budgets of the home page (scripts/measure/budgets.mjs), checked in `npm test`. Deterministic: counts bytes, not time.
import { startStack } from "../local-stack/stack.mjs";
import { BUDGETS, kb } from "../measure/budgets.mjs";
import { pageWeight } from "../measure/page-weight.mjs";

const stack = await startStack({ db: false, mail: false, fn: false, env: { site: { SITE_URL: "https://studio.example" } } });
let weight;
try {
  weight = await pageWeight(stack.siteUrl);
} finally {
  await stack.stop();
}
const rows = [
  ["First round trip (gzip)", weight.firstRoundTrip, BUDGETS.firstRoundTrip],
  ["Inline script (raw)", weight.inlineScript, BUDGETS.inlineScript],
  ["JS on arrival", weight.jsOnArrival, BUDGETS.jsOnArrival],
  ["JS on intent (brotli)", weight.jsOnIntent, BUDGETS.jsOnIntent],
  ["JS through a Send (brotli)", weight.jsThroughSend, BUDGETS.jsThroughSend],
];
let failed = false;
for (const [name, value, budget] of rows) {
  const ok = value <= budget;
  failed ||= !ok;
  console.log(`${ok ? "ok  " : "OVER"} ${name.padEnd(27)} ${kb(value).padStart(9)} of ${kb(budget)}`);
}
console.log(
  `     the whole page ${kb(weight.html)} gzip (${kb(weight.htmlBrotli)} brotli); ${weight.intentFiles} JS files on intent, ${weight.sendFiles} through a Send`,
);
if (weight.supabaseBeforeIntent) {
  console.log("OVER supabase-js is in the JavaScript loaded before the form is used");
  failed = true;
}
process.exit(failed ? 1 : 0);
