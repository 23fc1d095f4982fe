import { render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { equipment, equipmentSection, gallery, navigation, packages, services } from "~/content";
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
    expect(container.querySelectorAll('source[type="image/avif"]')).toHaveLength(6);
  });

  it("once mounted and left alone, the FAQ becomes the Radix accordion with all twelve items closed, each question a heading", async () => {
    render(<Faq />);
    expect(screen.getAllByRole("heading", { level: 3 })).toHaveLength(12);
    await waitFor(() => expect(screen.getAllByRole("button")).toHaveLength(12));
    for (const trigger of screen.getAllByRole("button")) expect(trigger).toHaveAttribute("aria-expanded", "false");
    expect(screen.getAllByRole("heading", { level: 3 })).toHaveLength(12);
  });

  it("the footer names the studio", () => {
    render(<Footer studioName="Test Studio" email="hi@test.example" />);
    expect(screen.getByText(/All rights reserved/)).toHaveTextContent("Test Studio");
  });
});
