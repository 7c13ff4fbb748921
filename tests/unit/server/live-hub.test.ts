import { afterEach, describe, expect, it } from 'vitest';
import { LiveHub } from '../../../server/live/hub.js';
import { localBus, type LiveMessage } from '../../../server/live/bus.js';
import type { Db } from '../../../server/db/index.js';

// Ingest tells the hub of every stored batch; the other nodes hear of it (a NOTIFY on PostgreSQL)
// only while a live list of the campaign or a live replay of the session is open somewhere.

const hubs: LiveHub[] = [];
afterEach(async () => {
  for (const hub of hubs.splice(0)) await hub.close();
});

function hubWithBus() {
  const bus = localBus();
  const sent: LiveMessage[] = [];
  const publish = bus.publish;
  bus.publish = (message) => {
    sent.push(message);
    publish(message);
  };
  // The hub reads the database only to reload a session for open lists; none here.
  const hub = new LiveHub({} as Db, bus, () => undefined);
  hubs.push(hub);
  const changes = () => sent.filter((m) => m.kind === 'changed');
  return { hub, changes };
}

describe('the live hub', () => {
  it('publishes nothing for a change nobody follows', () => {
    const { hub, changes } = hubWithBus();
    hub.sessionChanged('camp-1', 'sess-1');
    expect(changes()).toEqual([]);
  });

  it("publishes a change while the campaign's list is followed, for any of its sessions", () => {
    const { hub, changes } = hubWithBus();
    hub.listening('camp-1');
    hub.sessionChanged('camp-1', 'sess-1');
    hub.sessionChanged('camp-2', 'sess-9');
    expect(changes()).toEqual([{ kind: 'changed', campaignId: 'camp-1', sessionId: 'sess-1' }]);
  });

  it('publishes a change while the session is watched live, and says it is watched', () => {
    const { hub, changes } = hubWithBus();
    hub.watching('camp-1', 'sess-1');
    hub.sessionChanged('camp-1', 'sess-1');
    hub.sessionChanged('camp-1', 'sess-2');
    expect(changes()).toEqual([{ kind: 'changed', campaignId: 'camp-1', sessionId: 'sess-1' }]);
    expect(hub.isWatched('camp-1', 'sess-1')).toBe(true);
    expect(hub.isWatched('camp-1', 'sess-2')).toBe(false);
  });
});
