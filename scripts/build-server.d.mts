/** Builds dist/server (main.js, user.js, the workers' .cjs files); returns the packages each built file loads at run time. */
export function buildServer(outDir: string): Promise<Record<string, string[]>>;
