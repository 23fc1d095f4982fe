import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { holdInputUntilHydrated } from "./hydration/hold-input-from-react";

// The visitor's keys and taps stay with the plain HTML page until React has hydrated every part, so
// none of them makes React hydrate a part at once, inside the event (decision 016).
holdInputUntilHydrated();

// In a transition: React hydrates in slices of a few milliseconds, and the visitor's input between
// two slices is answered at once.
startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
