// The few parts of autocannon's API the bench uses (it ships no types).
declare module 'autocannon' {
  interface Request {
    method?: string;
    path?: string;
    setupRequest?: (request: Record<string, unknown>, context: never) => Record<string, unknown>;
    onResponse?: (status: number, body: string, context: never) => void;
  }
  interface Options {
    url: string;
    connections?: number;
    pipelining?: number;
    amount?: number;
    duration?: number;
    timeout?: number;
    /** Milliseconds between its samples (default 1000); a finished run ends at the next one. */
    sampleInt?: number;
    headers?: Record<string, string>;
    requests?: Request[];
  }
  interface Result {
    non2xx: number;
    errors: number;
    timeouts: number;
    duration: number;
    latency: { p50: number; p99: number; p97_5: number; average: number };
    requests: { total: number; average: number };
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
