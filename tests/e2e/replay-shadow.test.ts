import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { hasChromium, signedInContext } from '../helpers/browser.js';
import type { ReplayEvent } from '../../common/api-types.js';
import { flushRecorder, ownerTrackingSite, recorderRunning, useVisitorRig } from './tracker-site.js';
import { until } from './step.js';
import { pixelDifference } from './offline-fixtures.js';

// A web-components page (a custom element whose shadow root adopts a constructable stylesheet,
// as Lit does) that adds cards and restyles them as the visitor clicks, recorded by the real
// tracker. The first card comes after the full snapshot, so a seek fast-forwards through its
// adoption and the restylings after it. A seek to a moment must show the page as playing through to it does: rrweb's
// virtual-DOM fast-forward drops adopted stylesheets, so such recordings seek on the real DOM.

vi.setConfig({ testTimeout: 120_000 });

const page = (loader: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Cards</title>${loader}</head>
<body style="margin:0;font:16px sans-serif;background:#fff">
<button id="next" type="button" style="position:absolute;left:20px;top:20px">Next</button>
<p id="status" style="position:absolute;left:120px;top:8px">STEP-0</p>
<div id="cards" style="position:absolute;left:20px;top:70px"></div>
<script>
  const sheet = new CSSStyleSheet();
  const style = (step) => '.card{box-sizing:border-box;width:260px;height:60px;margin:0 0 10px;padding:14px;border:' + (4 + step * 3) + 'px solid rgb(0,' + step * 70 + ',0);background:rgb(' + (250 - step * 70) + ',40,' + step * 70 + ');color:#fff;font:bold 20px sans-serif}';
  sheet.replaceSync(style(0));
  customElements.define('shadow-card', class extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return;
      const root = this.attachShadow({ mode: 'open' });
      root.adoptedStyleSheets = [sheet];
      const card = document.createElement('div');
      card.className = 'card';
      card.textContent = this.getAttribute('label');
      root.append(card);
    }
  });
  let step = 0;
  document.getElementById('next').addEventListener('click', () => {
    step += 1;
    const card = document.createElement('shadow-card');
    card.setAttribute('label', 'Card ' + step);
    document.getElementById('cards').append(card);
    sheet.replaceSync(style(step));
    document.getElementById('status').textContent = 'STEP-' + step;
  });
</script></body></html>`;

/** The recorded page in the player, without the replayed mouse (it is drawn over the page, not in it). */
async function recordedPageShot(app: Page): Promise<Buffer> {
  await app.addStyleTag({ content: '.replayer-mouse, .replayer-mouse-tail { visibility: hidden !important; }' });
  const frame = app.locator('.player-host iframe');
  await frame.contentFrame().locator('#status').waitFor();
  // The page at its top, so the sticky header covers none of the player.
  await app.evaluate(() => window.scrollTo(0, 0));
  await app.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return frame.screenshot({ animations: 'disabled' });
}

const position = async (app: Page) => Number(await app.getByRole('slider', { name: 'Playback position' }).inputValue());

describe.skipIf(!hasChromium)('replaying web components (shadow DOM with adopted stylesheets)', () => {
  const rig = useVisitorRig({ '/': page });

  it('shows the same styles after a seek as after playing through to that moment', async () => {
    const { owner, campaignId } = await ownerTrackingSite(rig, 'Shadow Owner');
    const visitor = await rig.browser.newContext({ viewport: { width: 800, height: 500 } });
    const tab = await visitor.newPage();
    await tab.goto(`${rig.site.url}/`);
    await recorderRunning(tab);
    for (let step = 1; step <= 3; step++) {
      await tab.waitForTimeout(300);
      await tab.click('#next');
      await tab.getByText(`STEP-${step}`).waitFor();
    }

    // Wait until the stored recording holds the last change and runs on past the whole second after it
    // (the moment a link opens at), so both views below read the same events up to there.
    let moment = 0;
    const sessionId = await until('the stored recording to hold the last step and three seconds after it', async () => {
      await tab.mouse.move(300 + Math.round(Math.random() * 200), 400);
      await flushRecorder(tab);
      const listed = await fetch(`${rig.server.url}/api/v1/streaming/sessions/${campaignId}/`, { headers: owner.headers });
      const [session] = ((await listed.json()) as { sessions: { sessionId: string }[] }).sessions;
      if (!session) return false;
      const replay = (await (
        await fetch(`${rig.server.url}/api/v1/replay/retrieve/${campaignId}/${session.sessionId}`, { headers: owner.headers })
      ).json()) as { events: ReplayEvent[] };
      const start = replay.events[0].timestamp;
      const last = replay.events.find((event) => JSON.stringify(event).includes('STEP-3'));
      if (!last) return false;
      moment = Math.ceil((last.timestamp - start + 200) / 1000);
      // Three seconds recorded past the moment: the player is still playing when the test pauses it.
      return replay.events.some((event) => event.timestamp - start >= moment * 1000 + 3000) && session.sessionId;
    });
    await visitor.close();

    const context = await signedInContext(rig.browser, rig.server.config.publicUrl, owner, { viewport: { width: 1280, height: 800 } });
    const app = await context.newPage();
    const replayUrl = `${rig.server.config.publicUrl}/campaign/${campaignId}/session/${sessionId}`;

    // (a) Played through from the start to the moment, then paused. The session is still recording,
    // so without ?t= the page would open it live, at its latest moment; ?t=0 opens it at the start.
    await app.goto(`${replayUrl}?t=0`);
    await app.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => position(app), { timeout: 30_000, interval: 100 }).toBeGreaterThanOrEqual(moment * 1000);
    await app.getByRole('button', { name: 'Pause' }).click();
    await app.frameLocator('.player-host iframe').getByText('STEP-3').waitFor();
    const played = await recordedPageShot(app);

    // (b) Opened afresh at the moment: a seek, fast-forwarding through the mutations and restylings.
    await app.goto(`${replayUrl}?t=${moment}`);
    await expect.poll(() => position(app)).toBe(moment * 1000);
    await app.frameLocator('.player-host iframe').getByText('STEP-3').waitFor();
    const sought = await recordedPageShot(app);

    const share = await pixelDifference(await context.newPage(), played, sought);
    expect(share, `${(share * 100).toFixed(2)}% of the pixels differ`).toBeLessThan(0.001);
    await context.close();
  });
});
