/**
 * Wait before retry number `attempt` (1, 2, …): doubling from 1 s up to 60 s, with jitter
 * (50–100 %) so many tabs that lost the network together do not retry in step.
 */
export function retryDelay(attempt: number, random: () => number = Math.random): number {
  return Math.min(60_000, 1000 * 2 ** (attempt - 1)) * (0.5 + random() / 2);
}
