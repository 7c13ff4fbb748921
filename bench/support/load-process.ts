// The ingest load generator, in its own process so it does not share the server's event loop:
// autocannon POSTs the prepared bodies in order, one after another per connection, and counts
// which batches the server acknowledged (2xx) and how many events they held.
import autocannon from 'autocannon';

export interface LoadJob {
  url: string;
  origin: string;
  connections: number;
  /** Requests to send in all; or, with `seconds`, keep sending for that long. */
  amount?: number;
  seconds?: number;
  /** POST (the default) sends the bodies; GET sends none. */
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  bodies: Uint8Array[];
  /** Events in each body. */
  events: number[];
  /** Bodies are reused in turn (a route that stores nothing) or each sent once. */
  cycle: boolean;
}

export interface LoadResult {
  seconds: number;
  sent: number;
  acked: number;
  ackedEvents: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
}

interface Context {
  batch?: number;
  /** When this connection's current request was built, just before it is written. */
  started?: number;
}

/** Nearest-rank percentile of sorted samples. */
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

/** One job: the clock runs from the first request out to the last answer in. */
async function runJob(job: LoadJob): Promise<LoadResult> {
  let next = 0;
  let sent = 0;
  let acked = 0;
  let ackedEvents = 0;
  let first = 0;
  let last = 0;
  const statuses: Record<string, number> = {};
  // Our own latencies: autocannon's histogram counts whole milliseconds, too coarse for a no-op route.
  const latencies: number[] = [];
  const result = await autocannon({
    url: job.url,
    connections: job.connections,
    pipelining: 1,
    ...(job.seconds ? { duration: job.seconds } : { amount: job.amount }),
    timeout: 30,
    // autocannon notices a finished run at its next sampling tick (1 s by default): a short tick
    // keeps small jobs from idling. Its sampled figures are not used; we time requests ourselves.
    sampleInt: 50,
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: job.origin, ...job.headers },
    requests: [
      {
        method: job.method ?? 'POST',
        setupRequest: (request: Record<string, unknown>, context: Context) => {
          if (job.method === 'GET') {
            if (sent++ === 0) first = performance.now();
            context.started = performance.now();
            return request;
          }
          const index = job.cycle ? next++ % job.bodies.length : next++;
          if (index >= job.bodies.length) throw new Error('the load generator ran out of prepared batches');
          if (sent++ === 0) first = performance.now();
          context.batch = index;
          context.started = performance.now();
          const body = job.bodies[index];
          return { ...request, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
        },
        onResponse: (status: number, _body: string, context: Context) => {
          last = performance.now();
          if (context.started !== undefined) latencies.push(last - context.started);
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (status >= 200 && status < 300 && context.batch !== undefined) {
            acked++;
            ackedEvents += job.events[context.batch];
          }
        },
      },
    ],
  });
  return {
    seconds: (last - first) / 1000,
    sent,
    acked,
    ackedEvents,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    p50: percentile(
      latencies.sort((a, b) => a - b),
      50,
    ),
    p99: percentile(latencies, 99),
    statuses,
  };
}

process.on('message', (job: LoadJob) => {
  runJob(job).then(
    (result) => process.send?.({ result }),
    (error: unknown) => process.send?.({ error: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
