/**
 * Following a link in the phone menu closes the menu, from the first paint: the header is plain HTML
 * (decision 030), and an open menu would stay over the section the visitor jumped to. Inlined in the
 * page (app/document/inline-scripts.server.ts): it must stay self-contained, as it is serialised with
 * `Function.prototype.toString`. Without JavaScript the menu simply stays open.
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
