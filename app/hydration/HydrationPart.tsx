import { Suspense, useEffect, useState, type ReactNode } from "react";
import { partHydrated, partMounted, partUnmounted, shellHydrated, type PartToken } from "./guard-input-from-react";

/**
 * A unit of hydration (decision 016): React hydrates each part on its own, in slices, and the
 * visitor's input is kept from React until every part has (guard-input-from-react.ts). Nothing in a part
 * suspends, so there is no fallback to show.
 */
export function HydrationPart({ children }: { children: ReactNode }) {
  const [part] = useState<PartToken>(() => ({ hydrated: false }));
  useEffect(() => {
    partMounted(part);
    return () => partUnmounted(part);
  }, [part]);
  return (
    <Suspense fallback={null}>
      <PartHydrated part={part} />
      {children}
    </Suspense>
  );
}

function PartHydrated({ part }: { part: PartToken }) {
  useEffect(() => partHydrated(part), [part]);
  return null;
}

/**
 * Rendered once, after the page's content in the root layout: its effect runs after those of every
 * part the shell contains, so when it runs every part is known.
 */
export function ShellHydrated() {
  useEffect(() => shellHydrated(), []);
  return null;
}
