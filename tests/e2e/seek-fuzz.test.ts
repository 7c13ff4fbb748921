import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { hasChromium, signedInContext } from '../helpers/browser.js';
import type { ReplayEvent } from '../../common/api-types.js';
import { ownerTrackingSite, useVisitorRig } from './tracker-site.js';
import { step, until } from './step.js';
import { FUZZ_PAGES, FUZZ_SITES, recordVisit } from './seek-fuzz-sites.js';
import { formatPlayerTime } from '../../src/components/player/playerMath.js';

// Issue 36, item 2: seeking is exact in any order on any page. Real visits to three sites, recorded
// by the real tracker, are opened in the owner's replay page and sought in a random order (seeded;
// the seed is logged, and SEEK_FUZZ_SEED replays a failing order): each step first seeks to a random
// millisecond (a deep link only names whole seconds), then to a whole second. After that second seek
// the recorded page (its DOM's text, ids, classes and input values, every scroll position) and the
// replayed mouse cursor must be what a fresh deep link (?t=) to the same moment shows.

vi.setConfig({ testTimeout: 150_000 });

const SEEKS_PER_SITE = 8;

/** A small seeded random generator (mulberry32): the same seed gives the same seek order. */
function randomFrom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` whole seconds in 0..last, each different from the one before it (so every step is a seek). */
function seekOrder(random: () => number, last: number, count: number): number[] {
  const order: number[] = [];
  while (order.length < count) {
    const next = Math.floor(random() * (last + 1));
    if (next !== order[order.length - 1]) order.push(next);
  }
  return order;
}

interface Shown {
  dom: string;
  scrolls: string;
  cursor: string;
}

/**
 * What the player shows: the recorded page's body (elements with id, class and input state, and
 * text), the page's and every element's scroll, and the replayed cursor's place. rrweb's ':hover'
 * classes are left out: they follow the cursor, compared on its own.
 */
async function shown(app: Page): Promise<Shown | null> {
  const cursor = await app.locator('.replayer-mouse').evaluate((mouse: HTMLElement) => `${mouse.style.left},${mouse.style.top}`);
  const page = await app
    .frameLocator('.player-host iframe')
    .locator('html')
    .evaluate((root) => {
      const doc = root.ownerDocument;
      const lines: string[] = [];
      const scrolls: string[] = [];
      const walk = (node: Node, depth: string) => {
        if (node.nodeType === Node.TEXT_NODE) {
          const text = node.textContent?.trim();
          if (text) lines.push(`${depth}"${text}"`);
          return;
        }
        if (!(node instanceof doc.defaultView!.HTMLElement)) return;
        const tag = node.tagName.toLowerCase();
        if (['script', 'style', 'noscript'].includes(tag)) return;
        const classes = [...node.classList].filter((name) => name !== ':hover').join('.');
        const input = node instanceof doc.defaultView!.HTMLInputElement ? ` value="${node.value}" checked=${node.checked}` : '';
        lines.push(`${depth}<${tag}${node.id ? `#${node.id}` : ''}${classes ? `.${classes}` : ''}${input}>`);
        if (node.scrollTop || node.scrollLeft) scrolls.push(`${tag}#${node.id}: ${node.scrollLeft},${node.scrollTop}`);
        node.childNodes.forEach((child) => walk(child, `${depth}  `));
      };
      if (!doc.body) return null;
      walk(doc.body, '');
      const page = doc.scrollingElement;
      return { dom: `${doc.title}\n${lines.join('\n')}`, scrolls: `page: ${page?.scrollLeft},${page?.scrollTop}; ${scrolls.join('; ')}` };
    })
    .catch(() => null);
  return page && { ...page, cursor };
}

const position = async (app: Page) => Number(await app.getByRole('slider', { name: 'Playback position' }).inputValue());

describe.skipIf(!hasChromium)('seeking in any order', () => {
  const rig = useVisitorRig(FUZZ_PAGES);

  /** Records one visit per site at once; gives each site's stored session once all of it is stored. */
  async function recordVisits(campaignId: string, headers: Record<string, string>): Promise<Map<string, string>> {
    const visitors = await Promise.all(FUZZ_SITES.map(() => rig.browser.newContext({ viewport: { width: 1024, height: 700 } })));
    await Promise.all(FUZZ_SITES.map(async (site, i) => recordVisit(await visitors[i].newPage(), site, rig.site.url)));
    await Promise.all(visitors.map((visitor) => visitor.close()));
    const stored = async (sessionId: string) =>
      ((await (await fetch(`${rig.server.url}/api/v1/replay/retrieve/${campaignId}/${sessionId}`, { headers })).json()) as { events: ReplayEvent[] }).events;
    // Each session by the page it began on; stored in full once two looks in a row find as many events.
    const counts = new Map<string, number>();
    return until('every visit stored to its end', async () => {
      const listed = await fetch(`${rig.server.url}/api/v1/streaming/sessions/${campaignId}/`, { headers });
      const { sessions } = (await listed.json()) as { sessions: { sessionId: string }[] };
      const bySite = new Map<string, string>();
      let settled = sessions.length === FUZZ_SITES.length;
      for (const { sessionId } of sessions) {
        const events = await stored(sessionId);
        const href = (events.find((event) => event.type === 4)?.data as { href?: string } | undefined)?.href ?? '';
        const site = FUZZ_SITES.find((candidate) => href.endsWith(candidate.path));
        if (site) bySite.set(site.name, sessionId);
        settled &&= counts.get(sessionId) === events.length;
        counts.set(sessionId, events.length);
      }
      return settled && bySite.size === FUZZ_SITES.length && bySite;
    });
  }

  /** Opens the replay at `seconds` and waits for the player to be ready there. */
  async function openAt(app: Page, url: string, seconds: number) {
    await app.goto(`${url}?t=${seconds}`);
    await expect.poll(() => app.getByRole('button', { name: 'Play' }).isEnabled(), { timeout: 20_000 }).toBe(true);
  }

  /** What a fresh deep link to `seconds` shows, once two looks in a row agree. */
  async function truthAt(app: Page, url: string, seconds: number): Promise<Shown> {
    await openAt(app, url, seconds);
    let before: string | null = null;
    return until(`the deep link to ${seconds} s to draw its page`, async () => {
      const now = await shown(app);
      const same = now !== null && JSON.stringify(now) === before;
      before = now && JSON.stringify(now);
      return same && now;
    });
  }

  async function fuzz(context: BrowserContext, url: string, seed: number) {
    const truthPage = await context.newPage();
    const app = await context.newPage();
    await openAt(app, url, 0);
    const total = Number(await app.getByRole('slider', { name: 'Playback position' }).getAttribute('max'));
    const random = randomFrom(seed);
    const order = seekOrder(random, Math.floor(total / 1000), SEEKS_PER_SITE);
    const hops = order.map(() => Math.round(random() * total));
    console.info(`seek-fuzz ${url}: seed ${seed}, ${total} ms, seeks to ${order.map((s, i) => `${hops[i]} ms → ${s} s`).join(', ')}`);
    const truths = new Map<number, Shown>();
    const slider = app.getByRole('slider', { name: 'Playback position' });
    let from = 0;
    for (const [i, seconds] of order.entries()) {
      await step(`seed ${seed}, seek ${i + 1}: ${from} s → ${hops[i]} ms → ${seconds} s`, async () => {
        const truth = truths.get(seconds) ?? (await truthAt(truthPage, url, seconds));
        truths.set(seconds, truth);
        await slider.fill(String(hops[i]));
        await expect.poll(() => position(app)).toBe(hops[i]);
        await slider.fill(String(seconds * 1000));
        await expect.poll(() => position(app)).toBe(seconds * 1000);
        await expect.poll(() => app.getByTestId('player-time').textContent()).toBe(formatPlayerTime(seconds * 1000));
        await expect.poll(() => shown(app), { timeout: 10_000 }).toEqual(truth);
      });
      from = seconds;
    }
    await Promise.all([app.close(), truthPage.close()]);
  }

  it('shows after every seek what a deep link to that moment shows, on three recorded sites', async () => {
    const { owner, campaignId } = await ownerTrackingSite(rig, 'Sam Fuzz');
    const sessions = await recordVisits(campaignId, owner.headers);
    const context = await signedInContext(rig.browser, rig.server.config.publicUrl, owner, { viewport: { width: 1280, height: 800 } });
    const seed = Number(process.env.SEEK_FUZZ_SEED) || Date.now() % 100_000;
    for (const [index, site] of FUZZ_SITES.entries()) {
      const url = `${rig.server.config.publicUrl}/campaign/${campaignId}/session/${sessions.get(site.name)}`;
      await step(site.name, () => fuzz(context, url, seed + index));
    }
    await context.close();
  });
});
