import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { equipment, equipmentSection, faq, gallery, navigation, packages, services } from "~/content";
import { Equipment } from "./Equipment";
import { Faq } from "./Faq";
import { Footer } from "./Footer";
import { Gallery } from "./Gallery";
import { Header } from "./Header";
import { Services } from "./Services";

describe("page sections", () => {
  it("the header links to the four anchors and Book Now to #contact", () => {
    render(<Header studioName="Test Studio" />);
    const nav = screen.getAllByRole("navigation", { name: "Main" })[0]!;
    expect(
      within(nav)
        .getAllByRole("link")
        .map((a) => a.getAttribute("href")),
    ).toEqual(navigation.map((n) => n.href));
    // The header's own, and the menu's for a zoomed phone (CSS shows one at a time): both go to #contact.
    const bookNow = screen.getAllByRole("link", { name: "Book Now" });
    expect(bookNow).toHaveLength(2);
    for (const link of bookNow) expect(link).toHaveAttribute("href", "#contact");
  });

  it("services render every card with its price, each package with its price and savings", () => {
    render(<Services />);
    for (const s of services) {
      const card = screen.getByRole("heading", { name: s.title }).closest("li")!;
      expect(within(card).getByText(s.priceText)).toBeInTheDocument();
    }
    for (const p of packages) {
      const card = screen.getByRole("heading", { name: p.title }).closest("li")!;
      expect(within(card).getByText(p.priceText)).toBeInTheDocument();
      expect(within(card).getByText(p.savingsText)).toBeInTheDocument();
    }
  });

  it("equipment renders the groups and the badge", () => {
    render(<Equipment />);
    for (const g of equipment) expect(screen.getByRole("heading", { name: g.category })).toBeInTheDocument();
    expect(screen.getByText(equipmentSection.badge)).toBeInTheDocument();
  });

  it("the gallery gives each photo its alt, size and lazy loading, in AVIF and WebP", () => {
    const { container } = render(<Gallery />);
    const images = screen.getAllByRole("img");
    expect(images.map((img) => img.getAttribute("alt"))).toEqual(gallery.map((g) => g.alt));
    for (const img of images) {
      expect(img).toHaveAttribute("loading", "lazy");
      expect(img).toHaveAttribute("width");
      expect(img).toHaveAttribute("height");
    }
    expect(container.querySelectorAll(`source[type="image/avif"]`)).toHaveLength(gallery.length);
  });

  it("the FAQ is the native accordion: every item closed, one open at a time (one shared name), each question a heading over its answer", () => {
    const { container } = render(<Faq />);
    const items = [...container.querySelectorAll("details")];
    expect(items).toHaveLength(faq.length);
    expect(new Set(items.map((item) => item.getAttribute("name"))).size, "one exclusive group").toBe(1);
    expect(items[0]!.getAttribute("name")).toBeTruthy();
    expect(items.some((item) => item.open)).toBe(false);
    expect(screen.getAllByRole("heading", { level: 3 }).map((h) => h.textContent)).toEqual(faq.map((item) => item.question));
    faq.forEach((item, i) => {
      const question = within(items[i]!.querySelector("summary")!).getByRole("heading", { level: 3 });
      expect(question).toHaveTextContent(item.question);
      expect(within(items[i]!).getByRole("region", { hidden: true })).toHaveTextContent(item.answer);
    });
    // No script takes it over: nothing but the browser's own summary is a control.
    expect(screen.queryAllByRole("button")).toEqual([]);
  });

  it("the footer names the studio", () => {
    render(<Footer studioName="Test Studio" email="hi@test.example" />);
    expect(screen.getByText(/All rights reserved/)).toHaveTextContent("Test Studio");
  });
});
