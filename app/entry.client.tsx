import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot, type Root } from "react-dom/client";

let root: Root | undefined;
startTransition(() => {
  root = hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});

// The page hydrates when the visitor starts on the form (decision 016), so the part they are in is
// hydrated first: their next key then lands on a hydrated part, never on one React must first hydrate
// at once, in the middle of their typing. React 18's hydration root has this method (not in its types).
const focused = document.activeElement;
if (focused && focused !== document.body)
  (root as unknown as { unstable_scheduleHydration(target: Node): void }).unstable_scheduleHydration(focused);
