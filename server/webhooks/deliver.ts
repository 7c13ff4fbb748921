import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkedAddress, endpointUrl, TargetRefused, type AddressRule, type Resolved } from './guard.js';

// One attempt at a delivery: a POST to the endpoint, connected to the address the guard checked
// (a lookup that answers only it: no second resolution), within a time limit. A redirect is
// followed (at most MAX_REDIRECTS, the same POST) only to a target the guard accepts too; the
// answer's body is never read, so an endpoint cannot hold the worker with a slow or endless one.

/** How long one hop may take, connection to status line. */
const ATTEMPT_TIMEOUT_MS = 5000;
const MAX_REDIRECTS = 3;
const USER_AGENT = 'Tapedeck-Webhooks/1';

export interface Policy {
  allowed: AddressRule;
  /** Whether http:// targets may be reached (only where private targets are allowed). */
  allowHttp: boolean;
  timeoutMs?: number;
}

export interface Outcome {
  delivered: boolean;
  /** The last answer's status, when there was one. */
  responseCode: number | null;
  /** Why it was not delivered. */
  error: string | null;
}

/** A lookup that answers the checked address only, whatever it is asked. */
const pinned =
  ({ address, family }: Resolved): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };

/** The status of one POST to a checked address; the answer's headers (for a redirect). */
function postOnce(url: URL, to: Resolved, headers: Record<string, string>, body: string, timeoutMs: number): Promise<{ status: number; location?: string }> {
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      lookup: pinned(to),
      agent: false,
      headers: { ...headers, 'user-agent': USER_AGENT, 'content-length': Buffer.byteLength(body) },
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    req.on('response', (response) => {
      clearTimeout(timer);
      resolve({ status: response.statusCode ?? 0, location: response.headers.location });
      response.destroy();
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(body);
  });
}

/** Posts the body to the endpoint (following redirects the guard accepts); never throws. */
export async function post(target: string, headers: Record<string, string>, body: string, policy: Policy): Promise<Outcome> {
  let responseCode: number | null = null;
  try {
    let url = endpointUrl(target, policy.allowHttp);
    for (let hop = 0; ; hop++) {
      const to = await checkedAddress(url, policy.allowed);
      const answer = await postOnce(url, to, headers, body, policy.timeoutMs ?? ATTEMPT_TIMEOUT_MS);
      responseCode = answer.status;
      if (answer.status >= 200 && answer.status < 300) return { delivered: true, responseCode, error: null };
      if (answer.status < 300 || answer.status >= 400 || !answer.location) return { delivered: false, responseCode, error: `answered ${answer.status}` };
      if (hop === MAX_REDIRECTS) return { delivered: false, responseCode, error: `more than ${MAX_REDIRECTS} redirects` };
      url = endpointUrl(new URL(answer.location, url).href, policy.allowHttp);
    }
  } catch (error) {
    const reason = error instanceof TargetRefused ? error.message : `could not be sent: ${(error as Error).message}`;
    return { delivered: false, responseCode, error: reason.slice(0, 500) };
  }
}
