// Byte budgets for the first view (scripts/measure/budgets.mjs), checked in `npm test`. Deterministic: counts bytes, not time.
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
  ["JS on arrival (gzip)", weight.jsGzip, BUDGETS.jsGzip],
  ["JS on intent (gzip)", weight.intentJsGzip, BUDGETS.intentJsGzip],
  ["HTML + CSS (gzip)", weight.htmlGzip + weight.cssGzip, BUDGETS.htmlCssGzip],
];
let failed = false;
for (const [name, value, budget] of rows) {
  const ok = value <= budget;
  failed ||= !ok;
  console.log(`${ok ? "ok  " : "OVER"} ${name.padEnd(22)} ${kb(value).padStart(9)} of ${kb(budget)}`);
}
console.log(
  `     HTML ${kb(weight.htmlGzip)}, CSS ${kb(weight.cssGzip)} (brotli: ${kb(weight.htmlBrotli + weight.cssBrotli)}), ${weight.intentJsFiles.length} JS files on intent`,
);
if (weight.containsSupabase) {
  console.log("OVER supabase-js is in the JavaScript loaded before the form is used");
  failed = true;
}
process.exit(failed ? 1 : 0);
