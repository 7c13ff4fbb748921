import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it, onTestFailed, vi } from 'vitest';
import { hasChromium, signedInContext } from '../helpers/browser.js';
import { userSession } from '../helpers/auth.js';
import { makeCampaign } from '../integration/ingest-support.js';
import { CAPTURED_TAGS } from '../../common/captured.js';
import { PEOPLE_TAGS } from '../../common/people.js';
import { desktopRecording, playButton, recordedAgo, recordSession } from './replay-fixtures.js';
import { expectAccessible } from './a11y.js';
import { step } from './step.js';
import { useServerAndBrowser } from './server-and-browser.js';

// "Create issue" from a replay in Chromium: the owner sets the campaign's GitHub repository once,
// picks GitHub and gets GitHub's new-issue page (answered here: Chromium has no internet) filled
// with the session's title, the link to the moment the player is at and the error; "Copy as
// Markdown" puts the same text on the clipboard; a share link can stand for the page's address.
// The open menu passes axe at 1280 and 390 px and works from the keyboard.

vi.setConfig({ testTimeout: 120_000 });

const ERROR = 'TypeError: basket is undefined';

describe.skipIf(!hasChromium)('create an issue from a replay', () => {
  const rig = useServerAndBrowser();
  let owner: Awaited<ReturnType<typeof userSession>>;
  let campaignId = '';
  let recorded = '';

  beforeAll(async () => {
    owner = await userSession(rig.server, 'Isa Issuer');
    campaignId = await makeCampaign(rig.server, { ownerId: owner.userId });
    const events = recordedAgo(desktopRecording, 60_000);
    const start = events[0].timestamp;
    const custom = (t: number, tag: string, payload: object) => ({ type: 5, data: { tag, payload }, timestamp: start + t });
    recorded = await recordSession(rig.server, campaignId, [
      ...events,
      custom(1000, PEOPLE_TAGS.identify, { userId: 'customer-4711' }),
      custom(3000, CAPTURED_TAGS.error, { message: ERROR, source: 'app.js:1', stack: '' }),
    ]);
  });

  const menuButton = (page: Page) => page.getByRole('button', { name: 'Create issue' });
  const item = (page: Page, name: string | RegExp) => page.getByRole('menu', { name: 'Create issue' }).getByRole('menuitem', { name });
  const shareItem = (page: Page) => page.getByRole('menuitemcheckbox', { name: /Use a share link/ });

  /** The open menu is within the screen's width, and the page does not scroll sideways. */
  async function menuFits(page: Page, width: number) {
    const box = (await page.getByRole('menu', { name: 'Create issue' }).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  }

  async function openMenu(page: Page) {
    await menuButton(page).click();
    await page.getByRole('menu', { name: 'Create issue' }).waitFor();
  }

  /** Picks a tracker and returns the new tab's address (github.com answered by the test). */
  async function pick(context: BrowserContext, page: Page, name: string): Promise<URL> {
    await openMenu(page);
    const [tab] = await Promise.all([context.waitForEvent('page'), item(page, name).click()]);
    await tab.waitForLoadState('domcontentloaded');
    const url = new URL(tab.url());
    await tab.close();
    return url;
  }

  it('opens GitHub’s new-issue page filled in, copies the Markdown, uses a share link, and fits a phone', async () => {
    const { server, browser } = rig;
    const origin = server.config.publicUrl;
    const context = await signedInContext(browser, origin, owner, { viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await context.route(/^https:\/\/github\.com\//, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>New issue</title>' }),
    );
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    onTestFailed(() => console.log(`failed at ${page.url()}; page errors: ${errors.join('; ')}`));
    const replayUrl = `${origin}/campaign/${campaignId}/session/${recorded}`;

    await step('1. Open the replay at a moment; the menu works from the keyboard and passes axe', async () => {
      await page.goto(`${replayUrl}?t=5`);
      await page.locator('.replayer-wrapper iframe').waitFor({ state: 'attached' });
      await expect.poll(() => playButton(page).isEnabled()).toBe(true);
      await menuButton(page).focus();
      await page.keyboard.press('Enter');
      expect(await menuButton(page).getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('GitHub (set up)');
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('GitLab (set up)');
      await page.keyboard.press('End');
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Issue trackers…');
      await menuFits(page, 1280);
      await expectAccessible(page, 'the replay page with the issue menu open (1280)');
      await page.keyboard.press('Escape');
      expect(await menuButton(page).getAttribute('aria-expanded')).toBe('false');
      expect(await page.getByRole('menu').count()).toBe(0);
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toContain('Create issue');
    });

    await step('2. GitHub, not set up yet, asks for the repository once', async () => {
      await openMenu(page);
      await item(page, 'GitHub (set up)').click();
      const field = page.getByLabel('GitHub repository (owner/repo)');
      await expect.poll(() => field.evaluate((input) => input === document.activeElement)).toBe(true);
      await field.fill('acme');
      await page.getByRole('button', { name: 'Save trackers' }).click();
      await page.getByRole('alert').getByText('Type the repository as owner/repo.').waitFor();
      await expectAccessible(page, 'the issue trackers form with an error');
      await field.fill('https://github.com/acme/shop');
      await page.getByRole('button', { name: 'Save trackers' }).click();
      await page.getByRole('status').getByText('Issue trackers saved').waitFor();
      expect(await page.evaluate((id) => localStorage.getItem(`tapedeck.issueTargets.${id}`), campaignId)).toBe(JSON.stringify({ github: 'acme/shop' }));
    });

    const body = await step('3. GitHub opens in a new tab with the title, the moment’s link and the error', async () => {
      const url = await pick(context, page, 'GitHub');
      expect(`${url.origin}${url.pathname}`).toBe('https://github.com/acme/shop/issues/new');
      expect(url.searchParams.get('title')).toMatch(/^customer-4711 on \/\S*: 1 error$/);
      const text = url.searchParams.get('body') ?? '';
      expect(text.split('\n')[0]).toBe(`**Replay:** [watch from 00:05](${replayUrl}?t=5)`);
      expect(text).toContain(`1. 00:03 \`${ERROR}\``);
      expect(text).toContain('- **Visitor:** `customer-4711`');
      expect(text).toMatch(/- \*\*Browser:\*\* \S+/);
      expect(text).toMatch(/- \*\*Viewport:\*\* \d+×\d+/);
      return text;
    });

    await step('4. Copy as Markdown puts the same text on the clipboard', async () => {
      await openMenu(page);
      await item(page, 'Copy as Markdown').click();
      await page.getByRole('status').getByText('Copied', { exact: true }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(body);
    });

    const shared = await step('5. With "Use a share link", the issue links a read-only share link at the moment', async () => {
      await openMenu(page);
      await shareItem(page).click();
      await expect.poll(() => shareItem(page).getAttribute('aria-checked')).toBe('true');
      await page.keyboard.press('Escape');
      const text = (await pick(context, page, 'GitHub')).searchParams.get('body') ?? '';
      const link = /\]\((\S+)\) \(a read-only share link\)$/.exec(text.split('\n')[0])?.[1] ?? '';
      expect(link).toMatch(new RegExp(`^${origin}/shared/[A-Za-z0-9_-]{43}\\?t=5$`));
      return link;
    });

    await step('6. The share link opens its replay at that moment, with no account', async () => {
      const visitor = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const tab = await visitor.newPage();
      await tab.goto(shared);
      await tab.getByRole('heading', { name: 'Shared Session Replay' }).waitFor();
      await expect.poll(async () => Number(await tab.getByRole('slider', { name: 'Playback position' }).inputValue())).toBe(5000);
      await visitor.close();
    });

    await step('7. On a phone the open menu fits the screen and passes axe', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await openMenu(page);
      await menuFits(page, 390);
      await expectAccessible(page, 'the replay page with the issue menu open (390)');
      await page.keyboard.press('Escape');
    });

    await step('8. Offline the links are still made; the share link says why it cannot be used', async () => {
      await context.setOffline(true);
      await openMenu(page);
      await expect.poll(() => shareItem(page).getAttribute('aria-disabled')).toBe('true');
      expect(await shareItem(page).textContent()).toContain('Share links need a connection');
      expect(await shareItem(page).getAttribute('aria-checked')).toBe('false');
      await page.evaluate(() => navigator.clipboard.writeText('not the issue'));
      await item(page, 'Copy as Markdown').click();
      await page.getByRole('status').getByText('Copied', { exact: true }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(body);
      await context.setOffline(false);
    });

    expect(errors).toEqual([]);
    await context.close();
  });
});
