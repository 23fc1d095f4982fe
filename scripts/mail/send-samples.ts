/**
 * Sends every mail type (notification, confirmation, digest) for every sample enquiry through the
 * function's own code: its configuration (config.ts, from this process's environment), the mail each
 * delivery builds (delivery.ts) and its SMTP transport (mailer.ts). Run by capture.mjs against the
 * real SMTP catcher; prints one JSON line per mail sent: { key, type, sample, realistic }.
 * The X-Delivery-Key header of each mail is its key, which finds it among the caught mail.
 */
import { loadConfig } from "../../supabase/functions/send-contact-email/config.ts";
import { digestFor, emailFor } from "../../supabase/functions/send-contact-email/delivery.ts";
import { createMailer } from "../../supabase/functions/send-contact-email/mailer.ts";
import { SAMPLES } from "./samples.ts";

const { config } = loadConfig(Deno.env);
const mailer = createMailer(config.mail, config.mailFrom, config.mailTimeoutMs);
if (!mailer) throw new Error("no mail transport configured");

// Like real ids, each with its own first 8 characters (the reference the visitor is given).
const enquiryId = (i: number) => `${(0x7f3c2a10 + i * 0x1111).toString(16)}-5b9e-4c1d-9a7e-${String(i).padStart(12, "0")}`;
try {
  for (const [i, sample] of SAMPLES.entries()) {
    const delivery = { enquiryId: enquiryId(i + 1), message: sample.message };
    const sent = [
      ["notification", emailFor(config, { ...delivery, kind: "studio" }), { enquiry: delivery.enquiryId, kind: "studio" }],
      ["confirmation", emailFor(config, { ...delivery, kind: "confirmation" }), { enquiry: delivery.enquiryId, kind: "confirmation" }],
      [
        "digest",
        // A digest lists what was held in a flood: this enquiry first, then the other samples of its kind.
        digestFor(
          config,
          [sample, ...SAMPLES.filter((other) => other !== sample && other.realistic === sample.realistic).slice(0, 2)].map((s, j) => ({
            enquiryId: enquiryId(100 * (i + 1) + j),
            message: s.message,
            createdAt: new Date(Date.UTC(2026, 10, 24, 9 + j, 15)),
          })),
        ),
        { digest: true },
      ],
    ] as const;
    for (const [type, email, tags] of sent) {
      const key = `sample:${type}:${sample.id}`;
      await mailer.send(email, key, tags);
      console.log(JSON.stringify({ key, type, sample: sample.id, realistic: sample.realistic }));
    }
  }
} finally {
  await mailer.close();
}
