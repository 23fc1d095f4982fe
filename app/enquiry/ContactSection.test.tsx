import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { TEST_STUDIO } from "../../tests/support/studio";
import { ContactSection } from "./ContactSection";

const studio = TEST_STUDIO;

describe("the contact section", () => {
  it("the contact section shows the studio's details and opens the social link safely", () => {
    render(<ContactSection studio={studio} publicEnv={{ supabaseUrl: "http://x", supabaseAnonKey: "k" }} />);
    expect(screen.getByRole("heading", { name: "Let's Create Together" })).toBeInTheDocument();
    expect(screen.getByText(/Etobicoke, Ontario/)).toBeInTheDocument();
    const social = screen.getByRole("link", { name: /Instagram/ });
    expect(social).toHaveAttribute("target", "_blank");
    expect(social.getAttribute("rel")).toContain("noopener");
    expect(screen.getByText("Monday - Sunday: 24 Hours")).toBeInTheDocument();
  });
});
