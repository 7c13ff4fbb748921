import { describe, expect, it } from 'vitest';
import { EventType, IncrementalSource } from '@rrweb/types';
import { maskEvent, mutationCount, optedOut } from '../../../tracker/src/privacy.js';
import { resumeSession, newSessionId } from '../../../tracker/src/session.js';
import { fillLoader } from '../../../common/loader-script.js';
import fs from 'node:fs';
import path from 'node:path';

const nav = (fields: Record<string, unknown>) => fields as unknown as Navigator;

describe('event kinds', () => {
  it("are read as rrweb's own EventType and IncrementalSource", () => {
    const snapshot = { type: EventType.FullSnapshot, data: { node: { attributes: { placeholder: 'ada@example.com' } } } };
    maskEvent(snapshot);
    expect(snapshot.data.node.attributes.placeholder).toBe('***************');
    const mutation = { type: EventType.IncrementalSnapshot, data: { source: IncrementalSource.Mutation, adds: [{ node: {} }], removes: [{}] } };
    expect(mutationCount(mutation)).toBe(2);
    expect(mutationCount({ type: EventType.IncrementalSnapshot, data: { source: IncrementalSource.MouseMove } })).toBe(0);
  });
});

describe('the visitor’s choice', () => {
  it('honours Global Privacy Control and Do-Not-Track', () => {
    expect(optedOut(nav({ globalPrivacyControl: true }), {})).toBe(true);
    expect(optedOut(nav({ doNotTrack: '1' }), {})).toBe(true);
    expect(optedOut(nav({}), { doNotTrack: '1' })).toBe(true);
    expect(optedOut(nav({ msDoNotTrack: '1' }), {})).toBe(true);
    expect(optedOut(nav({ doNotTrack: '0', globalPrivacyControl: false }), { doNotTrack: null })).toBe(false);
  });
});

describe('masking rrweb events', () => {
  it('masks placeholder attributes in full snapshots', () => {
    const event = {
      type: 2,
      data: { node: { childNodes: [{ attributes: { placeholder: 'ada@example.com', type: 'email' }, childNodes: [] }] } },
    };
    maskEvent(event);
    expect(event.data.node.childNodes[0].attributes).toEqual({ placeholder: '***************', type: 'email' });
  });

  it('masks placeholders in added nodes and attribute changes', () => {
    const event = {
      type: 3,
      data: { source: 0, adds: [{ node: { attributes: { placeholder: 'secret' } } }], attributes: [{ id: 4, attributes: { placeholder: 'hunter2', class: 'x' } }], removes: [], texts: [] },
    };
    maskEvent(event);
    expect(event.data.adds[0].node.attributes.placeholder).toBe('******');
    expect(event.data.attributes[0].attributes).toEqual({ placeholder: '*******', class: 'x' });
    expect(mutationCount(event)).toBe(2);
  });

  it('counts no mutations for other events', () => {
    expect(mutationCount({ type: 3, data: { source: 2 } })).toBe(0);
    expect(mutationCount({ type: 2, data: {} })).toBe(0);
  });
});

describe('the tab’s session', () => {
  it('continues a session under 30 idle minutes and starts afresh after', () => {
    const saved = JSON.stringify({ id: 'abcdef0123456789', seq: 7, last: 1_000_000 });
    expect(resumeSession(saved, 1_000_000 + 29 * 60_000)).toEqual({ id: 'abcdef0123456789', seq: 7, last: 1_000_000 });
    const fresh = resumeSession(saved, 1_000_000 + 31 * 60_000);
    expect(fresh.seq).toBe(0);
    expect(fresh.id).not.toBe('abcdef0123456789');
    expect(resumeSession('not json', 5).seq).toBe(0);
    expect(resumeSession(null, 5).id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('makes 32-hex-digit ids the ingest accepts', () => {
    expect(newSessionId()).toMatch(/^[0-9a-f]{32}$/);
    expect(newSessionId()).not.toBe(newSessionId());
  });
});

describe('filling in the loader', () => {
  const source = fs.readFileSync(path.join(import.meta.dirname, '../../../tracker/loader.js'), 'utf8');

  it('replaces exactly the campaign-id and base-URL assignments', () => {
    const filled = fillLoader(source, 'c-1', 'https://rec.example.org/');
    expect(filled).toContain(`var campaignId = "c-1";`);
    expect(filled).toContain(`var baseUrl = "https://rec.example.org";`);
    expect(filled.replace('"c-1"', "''").replace('"https://rec.example.org"', "''")).toBe(source);
  });

  it('cannot be used to inject script', () => {
    const filled = fillLoader(source, '</script><script>alert(1)//', 'https://x.example');
    expect(filled).not.toContain('</script>');
    expect(filled).toContain('var campaignId = "\\u003c/script>\\u003cscript>alert(1)//";');
  });

  it('refuses a source without exactly one of each assignment', () => {
    expect(() => fillLoader('var baseUrl = "";', 'c', 'u')).toThrow('exactly one campaign-id assignment (found 0)');
    expect(() => fillLoader(source + source, 'c', 'u')).toThrow('(found 2)');
  });
});
