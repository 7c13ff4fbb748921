/**
 * Runs one named step of a long journey: a failure inside says which step it was in ("[2. Create
 * a campaign] ..."), so a single end-to-end test still tells where it broke.
 */
export async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Error) error.message = `[${name}] ${error.message}`;
    throw error;
  }
}
