// Timed HTTP requests: time to first byte (response head) and to the last byte of the body.
import http from 'node:http';
import zlib from 'node:zlib';

export interface Timed {
  status: number;
  firstByteMs: number;
  lastByteMs: number;
  /** The body as sent on the wire (still compressed when the server compressed it). */
  body: Buffer;
  headers: http.IncomingHttpHeaders;
}

// One kept-alive connection pool, as a browser would hold: timings leave out TCP set-up.
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

export function timedGet(url: string, headers: Record<string, string> = {}): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(url, { headers: { 'accept-encoding': 'gzip', ...headers }, agent }, (response) => {
      const firstByteMs = performance.now() - started;
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          firstByteMs,
          lastByteMs: performance.now() - started,
          body: Buffer.concat(parts),
          headers: response.headers,
        }),
      );
    });
    request.on('error', reject);
  });
}

/** The decoded body of a timed response. */
export function decodedBody(timed: Timed): string {
  const encoding = timed.headers['content-encoding'];
  if (encoding === 'gzip') return zlib.gunzipSync(timed.body).toString('utf8');
  if (encoding === 'br') return zlib.brotliDecompressSync(timed.body).toString('utf8');
  if (encoding === 'deflate') return zlib.inflateSync(timed.body).toString('utf8');
  return timed.body.toString('utf8');
}

/** p-th percentile (0–100) of samples, nearest rank. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
