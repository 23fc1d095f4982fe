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

  it("renders the spec's prices as exactly the spec's texts", () => {
    const atSpecPrices = priceList(
      services.map((service, i) => ({ ...service, price: spec.services[i]![1] })),
      packages.map((pkg, i) => ({ ...pkg, price: spec.packages[i]![1] })),
    );
    expect(atSpecPrices.services.map((s) => [s.title, s.priceText])).toEqual(spec.services.map(([title, , text]) => [title, text]));
    expect(atSpecPrices.packages.map((p) => [p.title, p.priceText, p.savingsText])).toEqual(
      spec.packages.map(([title, , price, savings]) => [title, price, savings]),
    );
  });

  it("has the spec's four services, each with four features, and its three packages", () => {
    expect(services.map((s) => s.title)).toEqual(spec.services.map(([title]) => title));
    for (const service of services) expect(service.features).toHaveLength(4);
    expect(packages.map((p) => p.title)).toEqual(spec.packages.map(([title]) => title));
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

  it("has twelve FAQ items carrying the booking terms", () => {
    expect(faq).toHaveLength(12);
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

  it("has six gallery photos, each with a meaningful alt text", () => {
    expect(gallery).toHaveLength(6);
    for (const photo of gallery) expect(photo.alt.length).toBeGreaterThan(20);
    expect(new Set(gallery.map((p) => p.src)).size).toBe(6);
  });

  it("has the four equipment groups, Studio Features with its four items", () => {
    expect(equipment.map((g) => g.category)).toEqual(["Microphones", "Audio Interface", "Studio Monitors", "Studio Features"]);
    expect(equipment[3]!.items).toHaveLength(4);
  });

  it("links the navigation to the spec's anchors", () => {
    expect(navigation.map((n) => n.href)).toEqual(["#services", "#equipment", "#faq", "#contact"]);
  });

  it("fills the studio e-mail into the failure toast", () => {
    expect(fill(toasts.failure.text, { email: "a@b.c" })).toBe("Please try again or contact us directly at a@b.c");
    expect(fill("{unknown} stays", {})).toBe("{unknown} stays");
  });
});
