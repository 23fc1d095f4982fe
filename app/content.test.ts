import { describe, expect, it } from "vitest";
import { equipment, faq, fill, gallery, navigation, packages, services, toasts } from "./content";

describe("content", () => {
  it("has the spec's four services at the spec's prices", () => {
    expect(services.map((s) => [s.title, s.price])).toEqual([
      ["Recording", "$60/hour"],
      ["Mixing", "$150 - $250"],
      ["Mastering", "$50/song"],
      ["Room Rental", "$30/hour"],
    ]);
    for (const service of services) expect(service.features).toHaveLength(4);
  });

  it("keeps each service's machine-readable offer in step with its price text", () => {
    for (const { price, offer } of services) {
      expect(price).toContain(`$${offer.minPrice}`);
      if (offer.maxPrice) expect(price).toContain(`$${offer.maxPrice}`);
      if (offer.unit) expect(price).toContain(`/${offer.unit}`);
    }
    for (const pkg of packages) expect(pkg.price).toBe(`$${pkg.offer.price}`);
  });

  it("has the spec's three packages with their savings", () => {
    expect(packages.map((p) => [p.title, p.price, p.savings])).toEqual([
      ["10 Hour Recording Package", "$550", "Save $50"],
      ["20 Hour Recording Package", "$1000", "Save $200"],
      ["10 Hour Room Rental Package", "$250", "Save $50"],
    ]);
  });

  it("prices each package's savings against the hourly rate", () => {
    const hourly = { Recording: 60, "Room Rental": 30 } as Record<string, number>;
    for (const pkg of packages) {
      const hours = Number(pkg.title.split(" ")[0]);
      const rate = hourly[pkg.title.includes("Room Rental") ? "Room Rental" : "Recording"]!;
      expect(pkg.savings).toBe(`Save $${hours * rate - pkg.offer.price}`);
    }
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
