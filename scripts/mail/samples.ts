/**
 * The enquiries the mail checks and the preview send through the function's own mail code: three
 * visitors (a Gmail, an Outlook and a custom-domain address: filters treat free-mail senders
 * differently) with a realistic enquiry each, and hostile ones (markup, encoded words, invisible and
 * right-to-left characters, spam-like words, a very long line) that must reach the studio escaped and
 * readable.
 */
import { type ContactMessage, emptyMessage } from "../../supabase/functions/_shared/contact-message.ts";

export type Sample = { id: string; realistic: boolean; message: ContactMessage };

export const VISITORS = {
  gmail: { name: "Maya Okafor", email: "maya.okafor@gmail.com" },
  outlook: { name: "Liam Tremblay", email: "liam.tremblay@outlook.com" },
  custom: { name: "Sofía Reyes", email: "sofia@reyesquartet.ca" },
} as const;
export type VisitorKind = keyof typeof VISITORS;

const REALISTIC: Record<VisitorKind, Pick<ContactMessage, "projectTitle" | "projectDetails">> = {
  gmail: {
    projectTitle: "Debut EP – 4 songs, live tracking",
    projectDetails:
      "Hi! We're a four-piece indie band (drums, bass, two guitars, vocals).\n" +
      "We'd like to track 4 songs live over two days in March, then overdub vocals.\n\n" +
      "Could you send your day rate and whether mixing is included?\nThanks,\nMaya",
  },
  outlook: {
    projectTitle: "Podcast intro and voice-over session",
    projectDetails:
      "Hello,\nI produce a weekly history podcast and need a 30-second intro recorded with a voice actor,\n" +
      "plus about two hours of voice-over for a season trailer.\n\nIs a weekday evening possible?\nLiam",
  },
  custom: {
    projectTitle: "String quartet album – mixing and mastering",
    projectDetails:
      "Good afternoon,\nOur quartet recorded nine pieces in a church last autumn (24-bit/96 kHz, 8 mics).\n" +
      "We are looking for mixing and mastering for a CD and streaming release in the spring.\n\n" +
      "Kind regards,\nSofía Reyes\nReyes Quartet",
  },
};

export function realistic(kind: VisitorKind): Sample {
  return { id: `${kind}-realistic`, realistic: true, message: { ...emptyMessage(), ...VISITORS[kind], ...REALISTIC[kind] } };
}

/** What a careless or hostile visitor types: every bit must arrive escaped, on its lines, readable. */
export const HOSTILE: Sample[] = [
  {
    id: "markup-and-encoded-words",
    realistic: false,
    message: {
      ...emptyMessage(),
      name: '<b>Bobby</b> "Tables" =?utf-8?Q?Bcc:_x@evil.test?=',
      email: "bobby@example.org",
      projectTitle: "<script>alert('x')</script> =?utf-8?B?QmNjOiB4QGV2aWwudGVzdA==?= & \"quotes\"",
      projectDetails:
        '<img src=x onerror=alert(1)>\n<a href="javascript:alert(1)">click</a>\n</td></tr></table><h1>broken?</h1>\n' +
        "Bcc: someone@evil.test\n&amp; already escaped &lt;b&gt;",
    },
  },
  {
    id: "invisible-rtl-and-long",
    realistic: false,
    message: {
      ...emptyMessage(),
      name: "Zoë\u200B \u202Eevil\u202C Ünïcødé 山田",
      email: "zoe@xn--bcher-kva.example",
      projectTitle: "שיר חדש – new song 🎸 FREE!!! CLICK HERE $$$",
      projectDetails: `${"A".repeat(400)}\n\n\n  indented line\n\ttabbed line\nhttps://example.org/a-very/long/path?with=query&and=more\n🎤🎧🎹`,
    },
  },
];

/** Every sample: the three realistic enquiries, then the hostile ones. */
export const SAMPLES: Sample[] = [realistic("gmail"), realistic("outlook"), realistic("custom"), ...HOSTILE];
