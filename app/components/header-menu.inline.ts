/**
 * Following a link in the phone menu closes the menu, from the first paint. The page hydrates only
 * when the visitor starts on the booking form (decision 016), so until then the header's own handler
 * (Header.tsx) is not there, and an open menu would stay over the section the visitor jumped to.
 * Inlined in the page with the input tracker (deferred-hydration.server.ts): it must stay
 * self-contained, as it is serialised with `Function.prototype.toString`. Without JavaScript the menu
 * simply stays open.
 */
export const MENU_ATTRIBUTE = "data-closes-on-link";

export function closeMenuOnLink(attribute: string) {
  addEventListener(
    "click",
    (event) => {
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      link?.closest(`details[${attribute}]`)?.removeAttribute("open");
    },
    { capture: true, passive: true },
  );
}

/** The inline script's body. */
export function closeMenuOnLinkSource() {
  return `(${closeMenuOnLink.toString()})(${JSON.stringify(MENU_ATTRIBUTE)});`;
}
