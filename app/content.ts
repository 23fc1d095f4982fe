/**
 * Every word, price and fact the page shows. Sections only render this.
 * Changing a price is one edit of one number here (serviceEntries, packageEntries); every text that shows it
 * is made from it, and `npm run typecheck` and the content tests guard it.
 * Studio-specific facts (name, e-mail, address, social link) are configuration: see app/config.server.ts.
 */

/** A price as the studio states it: per hour or per song, or a range. Canadian dollars, whole. */
export type Price = { amount: number; per: "hour" | "song" } | { from: number; to: number };

type ServiceEntry = { title: string; description: string; features: readonly string[]; price: Price };

/**
 * A prepaid package: so many hours of an hourly service, at one price; its savings follow, and its title too
 * ("10 Hour Recording Package") unless it carries its own.
 */
type PackageEntry = { hours: number; of: string; description: string; price: number; title?: string };

export type Service = ServiceEntry & { priceText: string };
export type Package = PackageEntry & { title: string; priceText: string; savings: number; savingsText: string };

export type EquipmentGroup = { category: string; items: readonly string[] };
export type GalleryImage = { src: string; alt: string };
export type FaqItem = { question: string; answer: string };

export const navigation = [
  { label: "Services", href: "#services" },
  { label: "Equipment", href: "#equipment" },
  { label: "FAQ", href: "#faq" },
  { label: "Contact", href: "#contact" },
] as const;

export const header = { bookNow: "Book Now", menu: "Menu" } as const;

export const hero = {
  eyebrow: "Recording · Mixing · Mastering · Room Rental",
  tagline: "Where your sound comes to life. Professional recording, mixing, and mastering services in a state-of-the-art facility.",
  cta: "Book a Session",
} as const;

export const servicesSection = {
  heading: "Services",
  intro: "Everything you need to take a song from the first take to the final master.",
  packagesHeading: "Packages",
  packagesIntro: "Prepaid hours at a better rate.",
} as const;

// Each price is stated once, as a number: every text that shows it ("$60/hour", "Save $50", the FAQ, the
// structured data) is made from it (priceList below).
const serviceEntries = [
  {
    title: "Recording",
    description: "Capture every take in a treated booth with real-time monitoring.",
    features: ["Large-diaphragm condenser microphone", "Audio interface", "Acoustic treatment", "Real-time monitoring"],
    price: { amount: 60, per: "hour" },
  },
  {
    title: "Mixing",
    description: "Balanced, polished mixes from your beat or your stems.",
    features: ["Mix with 2-track beat", "Mix with instrumental stems", "EQ and compression", "Creative effects"],
    price: { from: 150, to: 250 },
  },
  {
    title: "Mastering",
    description: "Release-ready loudness and balance on every platform.",
    features: ["Loudness optimization", "Frequency balancing", "Stereo enhancement", "Format delivery"],
    price: { amount: 50, per: "song" },
  },
  {
    title: "Room Rental",
    description: "The whole studio, yours by the hour.",
    features: ["Full studio access", "All equipment included", "Flexible hourly rates", "Prepaid packages available"],
    price: { amount: 30, per: "hour" },
  },
] as const satisfies readonly ServiceEntry[];

/** Only a service sold by the hour can be prepaid by the hour: the type checker holds a package to one. */
type HourlyService = Extract<(typeof serviceEntries)[number], { price: { per: "hour" } }>["title"];

// A package's savings are the hours at the service's hourly rate less the package's price: never typed.
const packageEntries = [
  { hours: 10, of: "Recording", description: "Ten prepaid hours of recording time.", price: 550 },
  { hours: 20, of: "Recording", description: "Twenty prepaid hours of recording time.", price: 1000 },
  { hours: 10, of: "Room Rental", description: "Ten prepaid hours with full studio access.", price: 250 },
] as const satisfies readonly (PackageEntry & { of: HourlyService })[];

/** An amount as the spec writes prices: "$550", "$1000" (no thousands separator). */
export function money(amount: number): string {
  return `$${amount}`;
}

/** The numbers a price states: its amount, or both ends of its range. */
export function amountsOf(price: Price): number[] {
  return "per" in price ? [price.amount] : [price.from, price.to];
}

/** "$60/hour", "$50/song", "$150 - $250". */
export function priceText(price: Price): string {
  return "per" in price ? `${money(price.amount)}/${price.per}` : `${money(price.from)} - ${money(price.to)}`;
}

/** The services and packages with every text made from their numbers (content tests feed it the spec's numbers). */
export function priceList(serviceList: readonly ServiceEntry[], packageList: readonly PackageEntry[]) {
  const hourlyRate = (title: string) => {
    const price = serviceList.find((s) => s.title === title)?.price;
    if (!price || !("per" in price) || price.per !== "hour") throw new Error(`${title} is not a service sold by the hour`);
    return price.amount;
  };
  return {
    services: serviceList.map((service): Service => ({ ...service, priceText: priceText(service.price) })),
    packages: packageList.map((pkg): Package => {
      const savings = pkg.hours * hourlyRate(pkg.of) - pkg.price;
      return {
        ...pkg,
        title: pkg.title ?? `${pkg.hours} Hour ${pkg.of} Package`,
        priceText: money(pkg.price),
        savings,
        savingsText: `Save ${money(savings)}`,
      };
    }),
  };
}

export const { services, packages } = priceList(serviceEntries, packageEntries);

export const equipmentSection = {
  heading: "Equipment",
  intro: "The tools behind every session.",
  badge: "Always upgrading our gear",
} as const;

// Only the facts the FAQ gives: no invented brands or models.
export const equipment: readonly EquipmentGroup[] = [
  { category: "Microphones", items: ["Large-diaphragm condenser microphone"] },
  { category: "Audio Interface", items: ["Audio interface connected over Thunderbolt"] },
  { category: "Studio Monitors", items: ["Studio monitors"] },
  {
    category: "Studio Features",
    items: ["Professional acoustic treatment", "Isolation booth", "Control room", "High-end cable management"],
  },
];

export const gallerySection = {
  heading: "The Space",
  intro: "A look inside the studio.",
} as const;

/**
 * `src` names a photo in public/photos without its size and format: `npm run images` makes
 * 480/800/1200 px AVIF and WebP files from public/photos/source/<src>.(jpg|png|svg).
 * The alt text must describe the photo: update it when you swap a picture.
 */
export const gallery: readonly GalleryImage[] = [
  { src: "vocal-booth", alt: "Illustration of the vocal booth: a condenser microphone with a pop filter in front of acoustic panels" },
  { src: "control-room", alt: "Illustration of the control room: a desk with two studio monitors and a waveform on a screen" },
  { src: "live-room", alt: "Illustration of the live room under warm light, with acoustic treatment on the walls" },
  { src: "interface", alt: "Illustration of the audio interface with its level meters lit" },
  { src: "cables", alt: "Illustration of neatly routed, colour-coded cables at the patch bay" },
  { src: "lounge", alt: "Illustration of the lounge area with a sofa where guests can listen in" },
];

export const contactSection = {
  heading: "Let's Create Together",
  subtitle: "Ready to bring your musical vision to life? Get in touch to discuss your project.",
  formCard: {
    title: "Book a Session",
    description: "Fill out the form below and we'll get back to you within 24 hours",
  },
  touchCard: { title: "Get In Touch", emailLabel: "Email", addressLabel: "Studio", socialLabel: "Follow us" },
  hoursCard: { title: "Studio Hours", hours: "Monday - Sunday: 24 Hours", note: "Open 24/7 for your convenience" },
} as const;

export const contactForm = {
  labels: {
    name: "Name",
    email: "Email",
    projectTitle: "Project Title",
    projectDetails: "Project Details",
  },
  optional: "(optional)",
  placeholders: {
    name: "Your name",
    email: "you@example.com",
    projectTitle: "e.g. Debut EP, 4 songs",
    projectDetails: "Tell us about your project, dates and what you need.",
  },
  submit: "Send Message",
  sending: "Sending...",
  /** Kept in step with RETENTION_DAYS (the function's, default 730) and the README's "What is kept". */
  privacy: "We use your details only to reply to your enquiry, and delete them within 24 months.",
} as const;

/** Toast texts, word for word from the spec's error catalogue (point 8). `{email}` is the studio e-mail. */
export const toasts = {
  missingFields: {
    title: "Please fill in all required fields",
    text: "Name, email, and project title are required.",
  },
  failure: {
    title: "Something went wrong",
    text: "Please try again or contact us directly at {email}",
  },
  success: {
    title: "Message sent successfully!",
    text: "We'll get back to you within 24 hours. Check your email for confirmation.",
  },
  dismiss: "Dismiss",
} as const;

/**
 * What the form says after a post made without JavaScript, where the spec's toasts cannot appear, for
 * the outcomes the spec does not name. `{minutes}` is when to try again.
 */
export const formNotices = {
  invalid: {
    title: "Please correct the highlighted fields",
    text: "Each field that needs a change says what is wrong beside it. Your message is still here.",
  },
  tooFast: {
    title: "Please take a moment and send again",
    text: "That was quicker than we expected from a person. Your message is still here: check it and press Send Message again.",
  },
  rateLimited: {
    title: "Please try again in {minutes} minutes",
    text: "We have received several enquiries from you in a short time. Your message is still here.",
  },
  refused: {
    title: "We could not read that form",
    text: "Please fill it in again on this page and press Send Message.",
  },
} as const;

export const faqSection = { heading: "Frequently Asked Questions" } as const;

/** A service's price as the services list shows it, so the FAQ never repeats a price by hand. */
function priceOf(title: (typeof serviceEntries)[number]["title"]): string {
  return services.find((s) => s.title === title)!.priceText;
}

// The items carrying exactly the studio's booking terms and facts.
export const faq: readonly FaqItem[] = [
  {
    question: "How do I book a session?",
    answer:
      "Send us an enquiry with the form above. A 50% non-refundable deposit is due at booking, and the balance is due at the start of your session.",
  },
  {
    question: "What is the minimum booking?",
    answer: "The minimum booking is 2 hours. Sessions are booked in hourly blocks.",
  },
  {
    question: "What are your hours?",
    answer: "We are open 24 hours a day, 7 days a week.",
  },
  {
    question: "Can I reschedule or cancel?",
    answer: "You can reschedule up to 48 hours in advance and your deposit transfers to the new date. A cancellation forfeits the deposit.",
  },
  {
    question: "How can I pay?",
    answer: "We accept e-transfer, PayPal or cash.",
  },
  {
    question: "How many people can come to a session?",
    answer: "The room holds 7 to 8 people, including guests.",
  },
  {
    question: "What equipment do you have?",
    answer:
      "A treated recording booth, a large-diaphragm condenser microphone, studio monitors, and an audio interface connected over Thunderbolt.",
  },
  {
    question: "What should I bring?",
    answer: "Bring your own laptop.",
  },
  {
    question: "Do you have an engineer?",
    answer: "Yes. In-house engineers are available on request.",
  },
  {
    question: "Do you offer mixing and mastering?",
    answer: `Yes. Mixing is ${priceOf("Mixing")} and mastering is ${priceOf("Mastering")}.`,
  },
  {
    question: "Is the studio 420-friendly?",
    answer: "Yes, the studio is 420-friendly.",
  },
  {
    question: "How soon will you reply to my enquiry?",
    answer: "We reply within 24 hours.",
  },
];

export const footer = { rights: "All rights reserved." } as const;

export const notFound = {
  code: "404",
  title: "Oops! Page not found",
  link: "Return to Home",
} as const;

export const errorScreen = { title: "Unexpected Application Error!" } as const;

export const meta = {
  description:
    "Professional recording, mixing, and mastering services and room rental in Etobicoke, Ontario. Open 24/7. Book a session today.",
} as const;

/** Fills `{email}`-style placeholders of the spec's texts from configuration. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}
