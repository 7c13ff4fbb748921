import { describe, expect, it } from 'vitest';
import { EventType } from '@rrweb/types';
import { createApiClient } from '../../../src/api/client.js';
import { fetchDemoReplay } from '../../../src/api/demo.js';
import { demoSize } from '../../../src/components/DemoPlayer.js';

// The network is scripted: each test answers the demo call itself.
const clientAnswering = (response: () => Response) => {
  const seen: string[] = [];
  const client = createApiClient({
    fetch: (async (input: RequestInfo | URL) => {
      seen.push(String(input));
      return response();
    }) as typeof fetch,
  });
  return { client, seen };
};

const events = [
  { type: EventType.Meta, data: { width: 390, height: 844 }, timestamp: 1 },
  { type: EventType.FullSnapshot, data: {}, timestamp: 2 },
];

describe('demo replay', () => {
  it("asks for the phone or desktop recording and reads the server's {data: events}", async () => {
    const phone = clientAnswering(() => Response.json({ data: events }));
    await expect(fetchDemoReplay(true, phone.client)).resolves.toEqual(events);
    expect(phone.seen).toEqual(['/api/v1/replay/retrieve/demo?isMobile=true']);
    const wrapped = clientAnswering(() => Response.json({ data: events }));
    await expect(fetchDemoReplay(false, wrapped.client)).resolves.toEqual(events);
    expect(wrapped.seen).toEqual(['/api/v1/replay/retrieve/demo?isMobile=false']);
  });

  it('fails with a reason: the status, or no events', async () => {
    await expect(fetchDemoReplay(false, clientAnswering(() => new Response('', { status: 503 })).client)).rejects.toThrow('Failed to fetch demo replay (503)');
    await expect(fetchDemoReplay(false, clientAnswering(() => Response.json({ data: [] })).client)).rejects.toThrow('No demo events available');
  });

  it('sizes the player from the meta event, 1366×768 without one, at least 1', () => {
    expect(demoSize(events)).toEqual({ width: 390, height: 844 });
    expect(demoSize([{ type: EventType.FullSnapshot, data: {}, timestamp: 1 }])).toEqual({ width: 1366, height: 768 });
    expect(demoSize([{ type: EventType.Meta, data: { width: 0, height: -5 }, timestamp: 1 }])).toEqual({ width: 1, height: 1 });
  });
});
