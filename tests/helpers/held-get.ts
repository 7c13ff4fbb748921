import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { TestServer } from './server.js';
import type { userSession } from './auth.js';
import type { Campaign } from '../../common/api-types.js';

export type Owner = Awaited<ReturnType<typeof userSession>>;

/** A campaign of the owner's, made through the API. */
export async function createCampaign(server: TestServer, owner: Owner): Promise<Campaign> {
  const response = await fetch(`${server.url}/api/v1/campaign/create`, {
    method: 'POST',
    headers: { ...owner.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Abuse', domains: 'example.com', limit: 0, start_date_time: 1, end_date_time: 2e12 }),
  });
  return ((await response.json()) as { data: Campaign }).data;
}

/** A GET whose answer the test reads when it chooses (or never, holding the server's stream). */
export function openGet(url: string, headers: Record<string, string>) {
  const request = http.get(url, { headers });
  const response = new Promise<http.IncomingMessage>((resolve, reject) => {
    request.once('response', (answer) => {
      answer.on('error', () => undefined); // a request the test destroys ends here
      resolve(answer);
    });
    request.on('error', reject);
  });
  response.catch(() => undefined);
  const body = async () => {
    const answer = await response;
    const parts: Buffer[] = [];
    for await (const part of answer) parts.push(part as Buffer);
    const raw = Buffer.concat(parts);
    return { status: answer.statusCode ?? 0, headers: answer.headers, body: answer.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw };
  };
  return { request, response, body };
}
