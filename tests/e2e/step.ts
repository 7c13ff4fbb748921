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

/**
 * Polls `probe` until it gives a truthy value and returns that value; gives up after `tries`
 * rounds 200 ms apart with an error naming what it waited for. A wait on a condition, not a sleep.
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined | false>, tries = 150): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`gave up waiting for ${what}`);
}
