import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../helpers/server.js';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { signIn, type SignedIn } from '../helpers/signin.js';
import { openSse, type SseClient } from '../helpers/sse.js';
import { info, pageEvents, sessionId } from './ingest-support.js';

// Live sessions across two server processes on one PostgreSQL behind a round-robin proxy:
// changes ingested by one node reach streams served by the other (LISTEN/NOTIFY), and a stream
// whose node stops resumes through the proxy on the other node without gaps or duplicates.
// PostgreSQL only (cluster-two-nodes.test.ts says why when skipped).

const DAY = 24 * 60 * 60 * 1000;
const SITE = 'https://shop.example.com';

describe.skipIf(!usingPostgres())('live sessions on two nodes behind a proxy', { timeout: 120_000 }, () => {
  let cluster: Cluster;
  let owner: SignedIn;
  let campaignId: string;
  const clients: SseClient[] = [];

  beforeAll(async () => {
    cluster = await startCluster(process.env.TEST_DATABASE_URL as string, { SHUTDOWN_GRACE_MS: '3000' });
    const site = { url: cluster.url, config: { publicUrl: cluster.url } };
    owner = await signIn(site, { name: 'Ada Live', email: 'ada@live.test' });
    const created = await fetch(`${cluster.url}/api/v1/campaign/create`, {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Live', domains: 'shop.example.com', limit: 0, start_date_time: Date.now() - DAY, end_date_time: Date.now() + DAY }),
    });
    campaignId = ((await created.json()) as { data: { id: string } }).data.id;
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) client.close();
    await cluster?.close();
  });

  /** A batch through the proxy; a request the proxy sent to a stopped node (502) goes again, as the tracker would. */
  async function post(session: string, seq: number) {
    const batch = { sessionId: session, seq, ...(seq === 0 ? { info: info() } : {}), events: pageEvents(Date.now() - 3000 + seq) };
    for (;;) {
      const response = await fetch(`${cluster.url}/api/v1/ingest/${campaignId}`, {
        method: 'POST',
        body: new Uint8Array(zlib.gzipSync(JSON.stringify(batch))),
        headers: { 'content-type': 'text/plain', origin: SITE },
      });
      if (response.status === 502) continue;
      expect(response.status).toBe(200);
      return { node: cluster.served[cluster.served.length - 1].node, live: response.headers.get('x-tapedeck-live') };
    }
  }

  /** Opens a stream through the proxy (again on a 502), and says which node serves it. */
  async function stream(path: string, headers: Record<string, string> = {}) {
    for (;;) {
      const before = cluster.served.length;
      const client = await openSse(`${cluster.url}${path}`, { ...owner.headers, ...headers });
      if (client.status === 502) continue;
      expect(client.status).toBe(200);
      clients.push(client);
      return { client, node: cluster.served[before].node };
    }
  }

  const seqs = (client: SseClient) => client.messages.filter((m) => m.event === 'events').map((m) => Number(m.id));

  it('streams batches ingested through either node, tells both nodes a viewer is present, and resumes on the other node after SIGTERM', async () => {
    const session = sessionId();
    await post(session, 0);
    const list = await stream(`/api/v1/streaming/sessions/${campaignId}/live`);
    const { client, node } = await stream(`/api/v1/replay/live/${campaignId}/${session}`);
    await client.waitFor(() => seqs(client).length === 1);

    // Batches take turns between the nodes: those stored by the other node reach this stream too.
    const answers = [];
    for (let seq = 1; seq <= 4; seq++) answers.push(await post(session, seq));
    expect(new Set(answers.map((a) => a.node))).toEqual(new Set([0, 1]));
    await client.waitFor(() => seqs(client).length === 5);
    expect(seqs(client)).toEqual([0, 1, 2, 3, 4]);
    // The node that does not serve the stream knows the session is watched (heard through NOTIFY).
    const elsewhere = answers.filter((a) => a.node !== node);
    expect(elsewhere.some((a) => a.live === '1')).toBe(true);
    await list.client.next((m) => m.event === 'session' && (JSON.parse(m.data) as { sessionId: string }).sessionId === session);

    // The stream's node stops: the stream gets a short retry hint and ends.
    cluster.nodes[node].child.kill('SIGTERM');
    await client.ended;
    expect(client.retries).toEqual([3000, 1000]);
    // Batches keep coming through the proxy meanwhile (to the node still running).
    await post(session, 5);
    await post(session, 6);
    const last = client.messages.filter((m) => m.event === 'events').at(-1)?.id as string;
    const resumed = await stream(`/api/v1/replay/live/${campaignId}/${session}`, { 'last-event-id': last });
    expect(resumed.node).not.toBe(node);
    await post(session, 7);
    await resumed.client.waitFor(() => seqs(resumed.client).length === 3);
    expect([...seqs(client), ...seqs(resumed.client)]).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(await cluster.nodes[node].exited).toBe(0);
  });
});
