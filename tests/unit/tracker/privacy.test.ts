import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventType, IncrementalSource } from '@rrweb/types';
import { maskEvent, maskPage, mutationCount, optedOut } from '../../../tracker/src/privacy.js';
import { maskText, pageUrl, requestUrl, scrubEvent, withoutQuery } from '../../../common/scrub.js';
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
      data: {
        source: 0,
        adds: [{ node: { attributes: { placeholder: 'secret' } } }],
        attributes: [{ id: 4, attributes: { placeholder: 'hunter2', class: 'x' } }],
        removes: [],
        texts: [],
      },
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

describe('the one scrubber of captured text and URLs', () => {
  it('masks card-like digit runs whatever separates the groups', () => {
    for (const card of ['4111.1111.1111.1111', '4111/1111/1111/1111', '4111 1111 1111 1111', '4111-1111-1111-1111', '4111111111111111']) {
      expect(maskText(`paid with ${card}.`)).toBe(`paid with ${card.replace(/\d/g, '*')}.`);
    }
    expect(maskText('order 12345 of 2 items')).toBe('order 12345 of 2 items');
  });

  it('masks full-width digits as digits', () => {
    expect(maskText('card ４１１１ １１１１ １１１１ １１１１')).toBe('card **** **** **** ****');
    expect(maskText('id ４１１１1111')).toBe('id ********');
  });

  it('masks e-mails, also percent-encoded or with a full-width at sign', () => {
    expect(maskText('user john%40example.com failed')).toBe('user [email] failed');
    expect(maskText('user JOHN%40EXAMPLE.COM failed')).toBe('user [email] failed');
    expect(maskText('user john＠example.com failed')).toBe('user [email] failed');
    expect(maskText('user john@example.com failed')).toBe('user [email] failed');
  });

  it('drops query strings and fragments of URLs in text, keeping a stack frame’s line and column', () => {
    expect(maskText('Uncaught at https://shop.example/app.js?v=abc&token=s3cret:14:77')).toBe('Uncaught at https://shop.example/app.js:14:77');
    expect(maskText('Error\n    at go (https://shop.example/?reset=s3cret#step:3:9)\n    at https://shop.example/a.js:1:2')).toBe(
      'Error\n    at go (https://shop.example/:3:9)\n    at https://shop.example/a.js:1:2',
    );
    expect(maskText('failed to load https://cdn.example/x.png?sig=abc, retrying')).toBe('failed to load https://cdn.example/x.png retrying');
  });

  it('drops query strings and fragments from request URLs and masks their paths, not their origins', () => {
    expect(requestUrl('https://api.example.com/v1/orders?token=abc&email=a%40b.com#x')).toBe('https://api.example.com/v1/orders');
    expect(requestUrl('http://127.0.0.1:8080/cards/4111.1111.1111.1111/john%40example.com')).toBe('http://127.0.0.1:8080/cards/****.****.****.****/[email]');
    expect(requestUrl('/api/users/1234567?x=1')).toBe('/api/users/*******');
    // The server scrubs again what the tracker scrubbed: nothing changes the second time.
    const once = requestUrl('https://example.com/a/123456/b?q=1#f');
    expect(requestUrl(once)).toBe(once);
  });

  it('changes nothing the second time: ingest scrubs again what the tracker scrubbed', () => {
    // Text made of the pieces the rules look at, in any order.
    const piece = fc.constantFrom(
      'http://127.0.0.1:8080/a',
      'https://x.example/p?token=1#f',
      '#step',
      '?',
      ':14:77',
      '(',
      ')',
      ' ',
      '\n',
      '4111',
      '.',
      '/',
      '-',
      '１２',
      '@',
      '%40',
      'john',
      'example.com',
      '＠',
      'a',
    );
    const text = fc.array(fc.oneof(piece, fc.string({ maxLength: 4 })), { maxLength: 24 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (value) => {
        expect(maskText(maskText(value))).toBe(maskText(value));
        expect(requestUrl(requestUrl(value))).toBe(requestUrl(value));
      }),
      { numRuns: 2000 },
    );
    expect(maskText('at http://127.0.0.1:3000/?x=1:14')).toBe('at http://***.*.*.*:3000/:14');
  });

  it('keeps a page address without query string and fragment', () => {
    expect(withoutQuery('https://shop.example.com/reset?token=s3cret&email=a@b.com#step2')).toBe('https://shop.example.com/reset');
    const meta = { type: EventType.Meta, data: { href: 'https://shop.example.com/cart?session=abc#top', width: 1, height: 1 } };
    maskPage(meta);
    expect(meta.data.href).toBe('https://shop.example.com/cart');
    const snapshot = { type: EventType.FullSnapshot, data: { href: 'https://x.example/?a=1' } };
    maskPage(snapshot);
    expect(snapshot.data.href).toBe('https://x.example/?a=1');
  });

  it('keeps a query string only when the campaign asks, its named parameters masked, and never a fragment', () => {
    const url = 'https://shop.example.com/search?q=shoes&token=abc&TOKEN=def&to%6Ben=x&mail=ada@example.com&flag#access_token=s3cret';
    expect(pageUrl(url)).toBe('https://shop.example.com/search');
    expect(pageUrl(url, null)).toBe('https://shop.example.com/search');
    const kept = pageUrl(url, ['token']);
    expect(kept).toBe('https://shop.example.com/search?q=shoes&token=*&TOKEN=*&to%6Ben=*&mail=[email]&flag');
    expect(pageUrl(kept, ['token'])).toBe(kept);
    expect(pageUrl('https://x.example/a?', ['token'])).toBe('https://x.example/a');
    expect(pageUrl('https://x.example/a?%E0%A4%A=1', ['token'])).toBe('https://x.example/a?%E0%A4%A=1');
    const meta = { type: EventType.Meta, data: { href: 'https://shop.example.com/cart?q=1&code=9#x' } };
    maskPage(meta, ['code']);
    expect(meta.data.href).toBe('https://shop.example.com/cart?q=1&code=*');
    expect(scrubEvent(meta, ['code'])).toBe(false);
    expect(scrubEvent(meta)).toBe(true);
    expect(meta.data.href).toBe('https://shop.example.com/cart');
  });

  it('scrubs what ingest stores from any sender: page addresses, captured text and request URLs', () => {
    const meta = { type: EventType.Meta, data: { href: 'https://shop.example.com/cart?token=abc' } };
    expect(scrubEvent(meta)).toBe(true);
    expect(meta.data.href).toBe('https://shop.example.com/cart');
    expect(scrubEvent(meta)).toBe(false);
    const request = {
      type: EventType.Custom,
      data: { tag: 'tapedeck/request', payload: { method: 'GET', url: '/api/card/4111.1111.1111.1111?token=1', status: 500, durationMs: 1 } },
    };
    expect(scrubEvent(request)).toBe(true);
    expect(request.data.payload.url).toBe('/api/card/****.****.****.****');
    const console = { type: EventType.Custom, data: { tag: 'tapedeck/console', payload: { level: 'error', message: 'no user john%40example.com\u0000' } } };
    expect(scrubEvent(console)).toBe(true);
    expect(console.data.payload.message).toBe('no user [email]');
    const other = { type: EventType.Custom, data: { tag: 'site/own', payload: { message: 'card 4111.1111.1111.1111' } } };
    expect(scrubEvent(other)).toBe(false);
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
