/** The page's live region: present in the server HTML so screen readers are already listening. */
export const ANNOUNCER_ID = "announcer";

/** Speaks `message` to screen readers through the live region (react-hot-toast's own are silenced). */
export function announce(message: string) {
  const region = document.getElementById(ANNOUNCER_ID);
  if (!region) return;
  // Clearing first makes a repeated identical message announce again.
  region.textContent = "";
  window.setTimeout(() => (region.textContent = message), 50);
}
