import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { errorScreen } from "~/content";

// The router's error, as the root's boundary receives it: a thrown Error or a route error response.
const routeError = vi.hoisted(() => ({ current: undefined as unknown }));
vi.mock("@remix-run/react", async (original) => ({
  ...(await original<typeof import("@remix-run/react")>()),
  useRouteError: () => routeError.current,
}));
const { ErrorBoundary } = await import("./root");

describe("the router's error screen (the root ErrorBoundary)", () => {
  it("shows the spec's title and the message of a thrown error", () => {
    routeError.current = new Error("Studio database unreachable");
    render(<ErrorBoundary />);
    expect(screen.getByRole("heading", { name: errorScreen.title })).toBeInTheDocument();
    expect(screen.getByText("Studio database unreachable")).toBeInTheDocument();
  });

  it("shows the status of a route error response", () => {
    routeError.current = { status: 503, statusText: "Service Unavailable", internal: false, data: null };
    render(<ErrorBoundary />);
    expect(screen.getByRole("heading", { name: errorScreen.title })).toBeInTheDocument();
    expect(screen.getByText("503 Service Unavailable")).toBeInTheDocument();
  });
});
