/** Builds dist/tracker: magicFormat.js (the readable loader) and recorder.js (the bundle). */
export function buildTracker(outDir: string): Promise<void>;
