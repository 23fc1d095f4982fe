/** The two kinds of message the spec's toasts show (point 8). */
export type Tone = "success" | "destructive";
