/**
 * react-hot-toast styles its toasts through goober, which writes its rules into a <style> element at
 * run time: under a CSP without 'unsafe-inline' for styles the browser would refuse those rules (and
 * the dismiss button, which one of them makes clickable, would not be). So the document carries that
 * element from the first byte, holding every rule goober will write (toast-styles.server.ts), and the
 * CSP allows it by hash: goober finds the element, finds each rule already in it and writes nothing.
 *
 * goober 2.1.19 (react-hot-toast 2.6's), dist/goober.modern.js, `getSheet`: the element is
 * `window._goober` (the element with this id), else a new <style id="_goober">; a rule whose text is
 * already in the element's first text node is not written again. toast-styles.server.test.ts reads the
 * installed goober and fails when an upgrade changes either.
 */
export const TOAST_STYLE_ELEMENT_ID = "_goober";
