import { describe, expect, it } from "vitest";
import { amountsOf, equipment, faq, fill, gallery, money, navigation, packages, priceList, services, toasts } from "./content";

describe("content", () => {
  // The spec's price tables (point 9), word for word: its numbers, put through the same priceList the page
  // uses, must read exactly as the spec writes them. Content's own numbers may change; these may not.
  const spec = {
    services: [
      ["Recording", { amount: 60, per: "hour" }, "$60/hour"],
      ["Mixing", { from: 150, to: 250 }, "$150 - $250"],
      ["Mastering", { amount: 50, per: "song" }, "$50/song"],
      ["Room Rental", { amount: 30, per: "hour" }, "$30/hour"],
    ],
    packages: [
      ["10 Hour Recording Package", 550, "$550", "Save $50"],
      ["20 Hour Recording Package", 1000, "$1000", "Save $200"],
      ["10 Hour Room Rental Package", 250, "$250", "Save $50"],
    ],
  } as const;

  // The spec's entries are found by title: the owner may add services and packages beside them.
  const specService = (title: string) => spec.services.find(([t]) => t === title);
  const specPackage = (title: string) => spec.packages.find(([t]) => t === title);

  it("renders the spec's prices as exactly the spec's texts", () => {
    const atSpecPrices = priceList(
      services.map((service) => ({ ...service, price: specService(service.title)?.[1] ?? service.price })),
      packages.map((pkg) => ({ ...pkg, price: specPackage(pkg.title)?.[1] ?? pkg.price })),
    );
    for (const [title, , text] of spec.services) expect(atSpecPrices.services.find((s) => s.title === title)?.priceText, title).toBe(text);
    for (const [title, , price, savings] of spec.packages) {
      const pkg = atSpecPrices.packages.find((p) => p.title === title);
      expect([pkg?.priceText, pkg?.savingsText], title).toEqual([price, savings]);
    }
  });

  it("has the spec's services, in its order, each listing its features once, and the spec's packages by their spec titles", () => {
    const titles = services.map((s) => s.title);
    expect(titles.filter((title) => specService(title))).toEqual(spec.services.map(([title]) => title));
    expect(new Set(titles).size, "titles are unique").toBe(titles.length);
    for (const service of services) {
      expect(service.features.length, service.title).toBeGreaterThan(0);
      expect(new Set(service.features).size, service.title).toBe(service.features.length);
    }
    const packageTitles = packages.map((p) => p.title);
    expect(packageTitles.filter((title) => specPackage(title))).toEqual(spec.packages.map(([title]) => title));
    expect(new Set(packageTitles).size, "package titles are unique").toBe(packageTitles.length);
  });

  it("titles a package by its hours and service unless it carries its own", () => {
    const [made, own] = priceList(services, [
      { hours: 3, of: "Recording", description: "", price: 1 },
      { hours: 3, of: "Recording", description: "", price: 1, title: "Weekend Demo Package" },
    ]).packages;
    expect([made!.title, own!.title]).toEqual(["3 Hour Recording Package", "Weekend Demo Package"]);
  });

  it("shows every price from its number", () => {
    for (const { price, priceText } of services) expect(priceText.match(/\d+/g)!.map(Number)).toEqual(amountsOf(price));
    for (const pkg of packages) expect(pkg.priceText).toBe(money(pkg.price));
  });

  it("saves on each package what its hours cost at the service's hourly rate, less its price", () => {
    for (const pkg of packages) {
      const service = services.find((s) => s.title === pkg.of)!;
      if (!("per" in service.price) || service.price.per !== "hour")
        throw new Error(`${pkg.title} prepays ${pkg.of}, not sold by the hour`);
      expect(pkg.savings).toBe(pkg.hours * service.price.amount - pkg.price);
      expect(pkg.savings, `${pkg.title} must cost less than its hours`).toBeGreaterThan(0);
      expect(pkg.savingsText).toBe(`Save ${money(pkg.savings)}`);
    }
  });

  it("gives the FAQ's mixing and mastering prices from the services", () => {
    const answer = faq.find((f) => f.question === "Do you offer mixing and mastering?")!.answer;
    for (const title of ["Mixing", "Mastering"]) expect(answer).toContain(services.find((s) => s.title === title)!.priceText);
  });

  it("refuses a package of a service not sold by the hour", () => {
    expect(() => priceList(services, [{ hours: 2, of: "Mastering", description: "", price: 1 }])).toThrow(/not a service sold by the hour/);
  });

  it("has FAQ items, each a question asked once with an answer, carrying the booking terms", () => {
    expect(faq.length).toBeGreaterThan(0);
    expect(new Set(faq.map((f) => f.question)).size, "questions are unique").toBe(faq.length);
    for (const { question, answer } of faq) expect([question.trim(), answer.trim()].every(Boolean), question).toBe(true);
    const all = faq.map((f) => f.answer).join(" ");
    for (const fact of [
      "50% non-refundable deposit",
      "2 hours",
      "7 to 8 people",
      "48 hours",
      "e-transfer, PayPal or cash",
      "24 hours a day, 7 days a week",
      "Thunderbolt",
      "own laptop",
      "420-friendly",
      "within 24 hours",
    ]) {
      expect(all).toContain(fact);
    }
  });

  // The spec's number, not the content's: the owner may add entries, never drop below the spec's twelve.
  it("ships at least the spec's twelve FAQ items", () => {
    expect(faq.length).toBeGreaterThanOrEqual(12);
  });

  it("has gallery photos, each shown once with a meaningful alt text", () => {
    expect(gallery.length).toBeGreaterThan(0);
    for (const photo of gallery) expect(photo.alt.length, photo.src).toBeGreaterThan(20);
    expect(new Set(gallery.map((p) => p.src)).size).toBe(gallery.length);
  });

  it("has the spec's equipment groups, in its order, each listing its items once", () => {
    const spec = ["Microphones", "Audio Interface", "Studio Monitors", "Studio Features"];
    expect(equipment.map((g) => g.category).filter((category) => spec.includes(category))).toEqual(spec);
    for (const group of equipment) {
      expect(group.items.length, group.category).toBeGreaterThan(0);
      expect(new Set(group.items).size, group.category).toBe(group.items.length);
    }
  });

  it("links the navigation to the spec's anchors", () => {
    expect(navigation.map((n) => n.href)).toEqual(["#services", "#equipment", "#faq", "#contact"]);
  });

  it("fills the studio e-mail into the failure toast", () => {
    expect(fill(toasts.failure.text, { email: "a@b.c" })).toBe("Please try again or contact us directly at a@b.c");
    expect(fill("{unknown} stays", {})).toBe("{unknown} stays");
  });
});
