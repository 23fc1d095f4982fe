/** The two kinds of message the spec's toasts show (point 8). */
export type Tone = "success" | "destructive";
/** How long a toast stays: errors until dismissed (WCAG 2.2.1), a success 8 s (or until the visitor is back in a field). */
export const TOAST_DURATION_MS: Record<Tone, number> = { success: 8000, destructive: Infinity };
