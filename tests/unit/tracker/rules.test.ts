// @vitest-environment jsdom
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskText } from '../../../common/scrub.js';
import { gzipSync } from 'node:zlib';
import { ALWAYS_BLOCKED, pageRecorded, sampled } from '../../../common/recording-rules.js';
import { recordRules } from '../../../tracker/src/rules.js';
import { maskEvent } from '../../../tracker/src/privacy.js';
import { consentAnswer, grantConsent, onConsent } from '../../../tracker/src/consent.js';
import { exposeConsent } from '../../../tracker/src/consent-global.js';
import { NOT_SAMPLED, packBatch } from '../../../server/ingest/pack.js';
import { onRecordedPages } from '../../../server/ingest/recorded-pages.js';

const ids = Array.from({ length: 10_000 }, (_, i) => `session-${i}`);

describe('sampling', () => {
  it('decides by the session id alone, the same every time, for about the share asked', () => {
    for (const id of ids.slice(0, 200)) expect(sampled(id, 37)).toBe(sampled(id, 37));
    expect(ids.every((id) => sampled(id, 100) && sampled(id))).toBe(true);
    const share = (rate: number) => ids.filter((id) => sampled(id, rate)).length / ids.length;
    expect(share(1)).toBeGreaterThan(0.005);
    expect(share(1)).toBeLessThan(0.02);
    expect(share(30)).toBeGreaterThan(0.28);
    expect(share(30)).toBeLessThan(0.32);
    // A session in a smaller sample is in every larger one: raising the rate never drops a recorded session.
    expect(ids.filter((id) => sampled(id, 10)).every((id) => sampled(id, 50))).toBe(true);
  });

  it('is decided the same way by ingest, which refuses the sessions left out', () => {
    const body = (sessionId: string) =>
      gzipSync(JSON.stringify({ sessionId, seq: 0, events: [{ type: 4, data: { href: 'https://x.example/' }, timestamp: Date.now() }] }));
    const out = ids.find((id) => !sampled(id, 20)) as string;
    const kept = ids.find((id) => sampled(id, 20)) as string;
    expect(packBatch(body(out), Date.now(), { captureConsole: true, sampleRate: 20 })).toEqual({ ok: false, status: 403, error: NOT_SAMPLED });
    expect(packBatch(body(kept), Date.now(), { captureConsole: true, sampleRate: 20 }).ok).toBe(true);
  });
});

describe('page rules', () => {
  it('match paths with * for any characters, the rest as written; excluding wins', () => {
    const rules = { include: ['/shop/*', '/cart'], exclude: ['/shop/account*'] };
    expect(pageRecorded('/shop/shoes', rules)).toBe(true);
    expect(pageRecorded('/cart', rules)).toBe(true);
    expect(pageRecorded('/cart/x', rules)).toBe(false);
    expect(pageRecorded('/shop/account/orders', rules)).toBe(false);
    expect(pageRecorded('/', rules)).toBe(false);
    expect(pageRecorded('/anything', {})).toBe(true);
    expect(pageRecorded('/a.b(c)', { include: ['/a.b(c)'] })).toBe(true);
    expect(pageRecorded('/aXb(c)', { include: ['/a.b(c)'] })).toBe(false);
  });

  it('drop at ingest the events of pages not recorded, from their Meta event to the next recorded page', () => {
    const e = (type: number, href?: string) => ({ type, data: href ? { href } : {}, timestamp: 1 });
    const events = [e(3), e(4, 'https://x.example/account?x=1'), e(2), e(3), e(4, 'https://x.example/shop'), e(2)];
    const rules = { include: [], exclude: ['/account'] };
    expect(onRecordedPages(events, rules, undefined)).toMatchObject({ kept: [events[0], events[4], events[5]], dropped: true, keptUnknownOpening: true });
    expect(onRecordedPages(events, { include: [], exclude: [] }, undefined).kept).toBe(events);
  });

  it('drop the events before the first Meta event when the session is on a page not recorded, and tell a batch that ends on one', () => {
    const e = (type: number, href?: string, timestamp = 1) => ({ type, data: href ? { href } : {}, timestamp });
    const rules = { include: [], exclude: ['/account'] };
    const events = [e(3), e(3), e(4, 'https://x.example/shop'), e(2), e(4, 'https://x.example/account', 7), e(2)];
    expect(onRecordedPages(events, rules, false)).toEqual({ kept: [events[2], events[3]], dropped: true, keptUnknownOpening: false, endsUnrecordedAt: 7 });
    expect(onRecordedPages(events.slice(0, 2), rules, false)).toMatchObject({ kept: [], dropped: true });
    expect(onRecordedPages(events.slice(0, 4), rules, true)).toEqual({ kept: events.slice(0, 4), dropped: false, keptUnknownOpening: false });
  });
});

describe('privacy presets', () => {
  const div = document.createElement('div');
  const marked = document.createElement('p');
  marked.className = 'tapedeck-mask';
  const text = 'Ada ada@example.com 4111 1111 1111 1111';

  it('strict masks every text and shows pictures as placeholders', () => {
    const rules = recordRules({ privacy: 'strict', block: '.price' });
    expect(rules?.maskTextSelector).toBe('*');
    expect(rules?.maskTextFn(text, div)).toBe('*** *************** **** **** **** ****');
    expect(rules?.blockSelector).toContain(`${ALWAYS_BLOCKED},img,`);
    expect(rules?.blockSelector.endsWith(',.price')).toBe(true);
    const snapshot = {
      type: 2,
      data: { node: { attributes: { alt: 'Ada', title: 'Hi', 'aria-label': 'Name', 'data-user': 'ada', class: 'x' }, childNodes: [] } },
    };
    maskEvent(snapshot, true);
    expect(snapshot.data.node.attributes).toEqual({ alt: '***', title: '**', 'aria-label': '****', 'data-user': '***', class: 'x' });
  });

  it('balanced masks e-mails and long numbers in every text, and marked text whole', () => {
    const rules = recordRules({});
    expect(rules?.maskTextSelector).toBe('*');
    expect(rules?.maskTextFn(text, div)).toBe('Ada [email] **** **** **** ****');
    expect(rules?.maskTextFn('Ada', marked)).toBe('***');
    expect(rules?.blockSelector).toBe(ALWAYS_BLOCKED);
    const snapshot = { type: 2, data: { node: { attributes: { alt: 'Ada', placeholder: 'ada@x.io' } } } };
    maskEvent(snapshot);
    expect(snapshot.data.node.attributes).toEqual({ alt: 'Ada', placeholder: '********' });
  });

  it('balanced skips only text the scrubber would leave as it is', () => {
    const maskTextFn = recordRules({})?.maskTextFn as (text: string, element: HTMLElement | null) => string;
    const pieces = fc.constantFrom('a', ' ', '1', '９', '@', '＠', '%40', '.', '-', 'x.io', '://h/p?q=1', ':', '/');
    fc.assert(fc.property(fc.array(fc.oneof(pieces, fc.string()), { maxLength: 20 }), (parts) => maskTextFn(parts.join(''), div) === maskText(parts.join(''))));
  });

  it('relaxed masks only the text the site marked (inputs are masked by every preset)', () => {
    const rules = recordRules({ privacy: 'relaxed' });
    expect(rules?.maskTextSelector).toBe('.tapedeck-mask,.td-mask,.rr-mask');
    expect(rules?.maskTextFn('Ada', marked)).toBe('***');
  });

  it('records nothing where the campaign’s selector is not one the browser reads', () => {
    expect(recordRules({ block: '.price[' })).toBeNull();
  });
});

describe('consent', () => {
  it('tells the recorder the answer, keeps it for the tab, and counts anything but true as no', () => {
    const heard: boolean[] = [];
    onConsent((granted) => heard.push(granted));
    const page: { consent?: (granted: unknown) => void } = {};
    exposeConsent(page);
    page.consent?.('yes');
    expect([heard, consentAnswer(), sessionStorage.getItem('tapedeck:consent')]).toEqual([[false], false, '0']);
    grantConsent(true);
    expect([heard, consentAnswer()]).toEqual([[false, true], true]);
  });
});
