import { act } from "@testing-library/react";
import { startTransition, type ReactNode } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  GUARD_EXPIRED_ATTRIBUTE,
  HYDRATED_ATTRIBUTE,
  guardInputUntilHydrated,
  partHydrated,
  partMounted,
  partUnmounted,
  shellHydrated,
  type PartToken,
} from "./guard-input-from-react";
import { HydrationPart, ShellHydrated } from "./HydrationPart";

const hydratedMark = () => document.documentElement.hasAttribute(HYDRATED_ATTRIBUTE);

let lift: (() => void) | undefined;
let root: Root | undefined;
afterEach(() => {
  lift?.();
  document.documentElement.removeAttribute(HYDRATED_ATTRIBUTE);
  document.documentElement.removeAttribute(GUARD_EXPIRED_ATTRIBUTE);
  if (root) act(() => root!.unmount());
  root = undefined;
  document.body.innerHTML = "";
});

describe("holding the visitor's input back from React while it hydrates", () => {
  function Page({ onPress }: { onPress: (name: string) => void }): ReactNode {
    return (
      <div>
        <HydrationPart>
          <button onClick={() => onPress("first")}>First</button>
        </HydrationPart>
        <HydrationPart>
          <input aria-label="Name" onKeyDown={() => onPress("key")} />
        </HydrationPart>
        <ShellHydrated />
      </div>
    );
  }

  it("a click or key before every part has hydrated reaches only the page (React hydrates nothing for it); after, React handles them", async () => {
    const container = document.createElement("div");
    container.innerHTML = renderToString(<Page onPress={() => {}} />);
    document.body.append(container);
    const pressed: string[] = [];
    // The page's own listeners still see everything (the input tracker, the menu's link handler).
    const seenByPage: string[] = [];
    const track = (event: Event) => seenByPage.push(event.type);
    addEventListener("click", track, { capture: true });
    addEventListener("keydown", track, { capture: true });

    lift = guardInputUntilHydrated();
    startTransition(() => {
      root = hydrateRoot(container, <Page onPress={(name) => pressed.push(name)} />);
    });
    // At once, before React has hydrated anything: without the guard, React hydrates the part here,
    // synchronously inside the event, and runs the handler.
    container.querySelector("button")!.click();
    container.querySelector("input")!.dispatchEvent(new KeyboardEvent("keydown", { key: "a", bubbles: true }));
    expect(pressed).toEqual([]);
    expect(seenByPage).toEqual(["click", "keydown"]);
    expect(hydratedMark()).toBe(false);

    await vi.waitFor(() => expect(hydratedMark()).toBe(true));
    container.querySelector("button")!.click();
    container.querySelector("input")!.dispatchEvent(new KeyboardEvent("keydown", { key: "a", bubbles: true }));
    expect(pressed).toEqual(["first", "key"]);
    removeEventListener("click", track, { capture: true });
    removeEventListener("keydown", track, { capture: true });
  });

  it("is lifted when the last part has hydrated, in whatever order the parts and the shell commit", () => {
    lift = guardInputUntilHydrated();
    const a: PartToken = { hydrated: false };
    const b: PartToken = { hydrated: false };
    const c: PartToken = { hydrated: false };
    partHydrated(c); // hydrated in the same commit as the shell: its own effect runs first
    partMounted(a);
    partMounted(b);
    partMounted(c);
    shellHydrated();
    expect(hydratedMark()).toBe(false);
    partHydrated(b);
    expect(hydratedMark()).toBe(false);
    partHydrated(a);
    expect(hydratedMark()).toBe(true);
  });

  it("waits for the shell, and a part that leaves the page unhydrated no longer holds it", () => {
    lift = guardInputUntilHydrated();
    const part: PartToken = { hydrated: false };
    partMounted(part);
    expect(hydratedMark()).toBe(false);
    partUnmounted(part);
    expect(hydratedMark()).toBe(false); // the shell has not committed: more parts may come
    shellHydrated();
    expect(hydratedMark()).toBe(true);
  });

  it("lets input through once lifted", () => {
    lift = guardInputUntilHydrated();
    const reached = vi.fn();
    document.body.addEventListener("click", reached);
    document.body.click();
    expect(reached).not.toHaveBeenCalled();
    shellHydrated();
    document.body.click();
    expect(reached).toHaveBeenCalledTimes(1);
  });

  it("where react-dom is not the version its events were read from, holds nothing (React hydrates as usual) and still marks the end", () => {
    lift = guardInputUntilHydrated({ guard: false });
    const reached = vi.fn();
    document.body.addEventListener("click", reached);
    document.body.click();
    expect(reached).toHaveBeenCalledTimes(1);
    expect(hydratedMark()).toBe(false);
    shellHydrated();
    expect(hydratedMark()).toBe(true);
  });

  it("is lifted after its deadline if the parts have not all reported (a broken assumption), saying so apart from hydrated: React then hydrates as usual", async () => {
    lift = guardInputUntilHydrated({ deadlineMs: 30 });
    const part = { hydrated: false };
    partMounted(part);
    shellHydrated();
    const reached = vi.fn();
    document.body.addEventListener("click", reached);
    document.body.click();
    expect(reached).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(document.documentElement.hasAttribute(GUARD_EXPIRED_ATTRIBUTE)).toBe(true));
    expect(hydratedMark(), "hydrated: not yet, only the deadline passed").toBe(false);
    document.body.click();
    expect(reached).toHaveBeenCalledTimes(1);
    partHydrated(part);
    expect(hydratedMark(), "hydrated, once the last part has").toBe(true);
  });
});
