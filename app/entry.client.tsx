/**
 * The page's scripts, from the first paint to hydrated (decisions 008, 016, 019 and 026):
 *
 *   first paint   Plain HTML does everything: links, the menu, the FAQ, a form that posts. Inlined at
 *                 the end of the body, five small scripts: the input tracker
 *                 (hydration/inline-input-tracker.ts), Send before hydration
 *                 (inline-send-before-hydration.ts), the menu's link handler
 *                 (components/header-menu.inline.ts), the loader (inline-script-loader.ts) and the
 *                 form's draft kept for Back (enquiry/form-draft.inline.ts). No script is fetched.
 *   intent        A focus, tap, key, click or input in the booking form. A Send pressed from here on
 *                 shows "Sending..." at once and waits for React's form.
 *   download      After the frame that answers it, at the visitor's first short pause (or at once for
 *                 a Send): the module preloads are restored and the router's context runs.
 *   quiet moment  With every module arrived, and no key or pointer down for a moment: the library
 *                 chunks are evaluated one per task, then the bootstrap module, which runs this file.
 *   parts         React hydrates the page's parts (hydration/HydrationPart.tsx) in slices, in a
 *                 transition, while the visitor's input stays with the plain HTML
 *                 (guard-input-from-react.ts). The form's part takes over a waiting Send.
 *   hydrated      Every part has committed: `<html data-hydrated>`, and React hears the visitor. (If
 *                 that takes longer than the guard's deadline, `<html data-guard-expired>`: React
 *                 hears the visitor from then on and hydrates as by default.)
 *
 * What this leans on inside React and Remix is in hydration/framework-assumptions.ts; where one does
 * not hold, the page hydrates as React does by default.
 */
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { version as reactDomVersion } from "react-dom";
import { hydrateRoot } from "react-dom/client";
import { reactDomLineHolds } from "./hydration/framework-assumptions";
import { guardInputUntilHydrated } from "./hydration/guard-input-from-react";

// The visitor's keys and taps stay with the plain HTML page until React has hydrated every part, so
// none of them makes React hydrate a part at once, inside the event (decision 016). Not with a
// react-dom whose event lists were not read (framework-assumptions.ts): React then hydrates as usual.
const guard = reactDomLineHolds(reactDomVersion);
if (!guard) console.warn(`react-dom ${reactDomVersion}: the input guard was read from another version; hydrating without it`);
guardInputUntilHydrated({ guard });

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
