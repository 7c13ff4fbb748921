import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { signIn, TEST_PASSWORD } from '../helpers/signin.js';
import { ACCESS_COOKIE, REFRESH_COOKIE } from '../../server/auth/tokens.js';
import { appendChunk } from '../../server/recordings/seed.js';
import { insertSession } from '../../server/recordings/seed.js';
import type { Campaign, ReplayEvent, SessionsResponse } from '../../common/api-types.js';
import { expectAccessible, focusRing } from './a11y.js';
import { step } from './step.js';
import { flushRecorder, recorderRunning, startSite, type Site } from './tracker-site.js';

// The whole PWA journey in real Chromium against a real server: every screen (landing, dashboard,
// create campaign, sessions, replay, saved, 404) and its texts, at desktop size and on a phone. Screenshots go to test-results/screens/ (git-ignored).
// On every screen (modals open, the replay loaded) axe-core must find no critical or serious violation.

const shots = path.resolve('test-results/screens');
const demoEvents = JSON.parse(gunzipSync(fs.readFileSync(path.resolve('server/replay/demo/desktop.json.gz'))).toString('utf8')) as ReplayEvent[];

const CONTACT_EMAIL = 'hello@tapedeck.test';
/** The replay player (rrweb-player and its controls) is checked by the replay page's own test. */

const viewports = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
];

describe.skipIf(!hasChromium)('PWA screens journey', () => {
  let server: TestServer;
  let browser: Browser;
  let site: Site;

  beforeAll(async () => {
    fs.mkdirSync(shots, { recursive: true });
    server = await startServer({ CONTACT_EMAIL }, { privateDist: true });
    site = await startSite();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await server?.close();
  });

  for (const device of viewports) {
    it(`walks through every screen (${device.name})`, async () => {
      const origin = server.config.publicUrl;
      const context: BrowserContext = await browser.newContext({
        viewport: device.viewport,
        isMobile: device.isMobile,
        hasTouch: device.isMobile,
        acceptDownloads: true,
        // The offline tests cover the service worker; here requests must reach page.route holds.
        serviceWorkers: 'block',
      });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
      const page = await context.newPage();
      const consoleLines: string[] = [];
      page.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
      onTestFailed(async () => {
        await page.screenshot({ path: path.join(shots, `${device.name}-FAILED.png`), fullPage: true }).catch(() => undefined);
        console.log(`failed at ${page.url()}\n${consoleLines.join('\n')}`);
      });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const shot = async (name: string) => {
        // Usable on this screen: nothing wider than the viewport (no sideways scrolling).
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${name} is wider than the screen`).toBeLessThanOrEqual(0);
        await page.screenshot({ path: path.join(shots, `${device.name}-${name}.png`), fullPage: true });
      };
      const see = (text: string | RegExp) => page.getByText(text).first().waitFor();
      const titled = (title: string) => expect.poll(() => page.title()).toBe(title);
      const accessible = (name: string, exclude: string[] = []) => expectAccessible(page, `${name} (${device.name})`, exclude);
      const openMenu = async () => {
        if (device.isMobile) await page.getByRole('button', { name: 'Toggle menu' }).click();
      };

      /** The speed buttons a player offers, in order. */
      const speeds = async (scope: string) =>
        (await page.locator(`${scope} .player-speeds button`).allTextContents()).map((t) => t.trim()).filter((t) => /^[\d.]+x$/.test(t));
      const footer = page.locator('footer#contact');
      // Carried from one step to the next.
      let name!: string;
      let campaignId!: string;
      let human!: string;

      await step('1. Landing page signed out: demo, branding, icons, manifest, keyboard', async () => {
        // Landing page, signed out, with the demo player.
        await page.goto(`${origin}/`);
        await see('No credit card required • 14-day free trial');
        await page.getByRole('link', { name: 'Get started free' }).first().waitFor();
        expect(await page.getByRole('link', { name: 'See features' }).getAttribute('href')).toBe('#features');
        for (const id of ['features', 'how-it-works', 'pricing', 'contact']) expect(await page.locator(`#${id}`).count()).toBe(1);
        for (const text of [
          'Install',
          'Record',
          'Analyze',
          'Starter',
          'Pro',
          '1,000 sessions/month',
          'To be announced',
          'Start recording today',
          'Have questions? Contact us',
          'Privacy',
          'Terms',
        ])
          await see(text);
        expect(await page.getByRole('button', { name: 'Coming Soon' }).isDisabled()).toBe(true);
        expect(await page.locator('.feature-card').count()).toBe(6);
        await page.locator('.demo-card').scrollIntoViewIfNeeded();
        await page.locator('.rr-player').waitFor();
        const player = await page.locator('.rr-player').boundingBox();
        expect(player!.width).toBeLessThanOrEqual(device.viewport.width);
        await page.locator('.player-controls').first().waitFor();
        expect(await speeds('.demo-card')).toEqual(['0.5x', '1x', '2x', '4x', '8x']);
        expect(await page.locator('.demo-card .player-speeds button[aria-pressed="true"]').textContent()).toBe('1x');
        await shot('landing');
        await titled('Tapedeck — session recording and replay');
        await accessible('landing');

        // Branding: the product's name and mark, never the server's host name; the owner's contact address.
        const brand = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tapedeck' });
        expect(await brand.locator('svg.logo-mark').count()).toBe(1);
        expect(await footer.textContent()).toContain(`© ${new Date().getFullYear()} Tapedeck`);
        expect(await footer.getByRole('link', { name: CONTACT_EMAIL }).getAttribute('href')).toBe(`mailto:${CONTACT_EMAIL}`);
        expect(await page.locator('body').innerText()).not.toContain(new URL(origin).hostname);
        // Favicon and apple-touch-icon are real images.
        const icons = await page
          .locator('link[rel="icon"], link[rel="apple-touch-icon"]')
          .evaluateAll((links) => links.map((l) => (l as HTMLLinkElement).href));
        expect(icons.length).toBe(3);
        for (const icon of icons) {
          const answer = await page.request.get(icon);
          expect(answer.status(), icon).toBe(200);
          expect(answer.headers()['content-type'], icon).toMatch(/^image\/(png|svg\+xml)/);
        }
        expect(await page.locator('link[rel="apple-touch-icon"]').getAttribute('href')).toBe('/icons/apple-touch-icon-180.png');
        // The manifest has an id and real screenshots, wide and narrow, of the sizes it declares.
        const manifestUrl = new URL((await page.locator('link[rel="manifest"]').getAttribute('href'))!, origin).href;
        const manifest = (await (await page.request.get(manifestUrl)).json()) as {
          id?: string;
          screenshots?: { src: string; sizes: string; form_factor?: string }[];
        };
        expect(manifest.id).toBe('/');
        expect(manifest.screenshots?.map((shot) => shot.form_factor).sort()).toEqual(['narrow', 'wide']);
        for (const screenshot of manifest.screenshots!) {
          const png = await (await page.request.get(new URL(screenshot.src, origin).href)).body();
          expect(png.subarray(1, 4).toString('latin1'), screenshot.src).toBe('PNG');
          expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`, screenshot.src).toBe(screenshot.sizes);
        }

        // Keyboard: the first Tab reaches 'Skip to content', focus is visible on every stop.
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.locator('body').focus();
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
        for (let i = 0; i < 4; i++) {
          await page.keyboard.press('Tab');
          // A visible ring, at least 3:1 against the background it is drawn on.
          const ring = await focusRing(page);
          expect(ring.style, ring.element).not.toBe('none');
          expect(ring.width, ring.element).toBeGreaterThanOrEqual(2);
          expect(ring.ratio, ring.element).toBeGreaterThanOrEqual(3);
        }
      });

      await step('2. Get started free, the sign-in form, Privacy and Terms', async () => {
        // 'Get started free', signed out, goes straight to sign-in (never through /dashboard and back).
        const visited: string[] = [];
        const onNavigated = (frame: { url(): string }) => frame === page.mainFrame() && visited.push(new URL(frame.url()).pathname);
        page.on('framenavigated', onNavigated);
        await page.locator('.hero').getByRole('link', { name: 'Get started free' }).click();
        await page.getByLabel('Password').waitFor();
        page.off('framenavigated', onNavigated);
        expect(new URL(page.url()).pathname).toMatch(/^\/oidc\//);
        expect(visited).not.toContain('/dashboard');
        // The sign-in form: fits the screen, has a main landmark, passes axe.
        expect(await page.getByRole('main').count()).toBe(1);
        await shot('signin');
        await accessible('sign-in form');
        await page.goBack();
        await page.waitForURL(`${origin}/`);

        // Privacy and Terms are pages of their own.
        for (const [link, heading] of [
          ['Privacy', 'Privacy'],
          ['Terms', 'Terms'],
        ]) {
          await footer.getByRole('link', { name: link }).click();
          await page.waitForURL(`${origin}/${link.toLowerCase()}`);
          await page.getByRole('heading', { level: 1, name: heading }).waitFor();
          await titled(`${heading} — Tapedeck`);
          await page.getByRole('link', { name: CONTACT_EMAIL }).waitFor();
          await shot(link.toLowerCase());
          await accessible(link);
          await page.goBack();
          await page.waitForURL(`${origin}/`);
        }
      });

      await step('3. Signing in from a protected page', async () => {
        // A protected page sends a signed-out visitor to /, carrying where they were going in the URL.
        await page.goto(`${origin}/createCampaign`);
        await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('returnTo') === '/createCampaign');
        await see('No credit card required • 14-day free trial');

        // Sign in through the real flow (built-in provider: Name, Email, 'Sign in').
        await see('Please sign in to continue.');
        await openMenu();
        await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign in with Google' }).click();
        name = `Ada ${device.name}`;
        await page.getByLabel('Name').fill(name);
        await page.getByLabel('Email').fill(`ada.${device.name}@example.test`);
        await page.getByLabel('Password').fill(TEST_PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL(`${origin}/createCampaign`);
        await see('Domain to Accept Traffic From');

        // While the auth check runs, protected pages show 'Loading...' (the check is held here).
        let releaseCheck!: () => void;
        const checkHeld = new Promise<void>((resolve) => (releaseCheck = resolve));
        await page.route('**/api/v1/auth/me', async (route) => {
          await checkHeld;
          await route.continue();
        });
        await page.goto(`${origin}/dashboard`);
        await see('Loading...');
        releaseCheck();
        await see('Campaign Dashboard');
        await page.unroute('**/api/v1/auth/me');
      });

      await step('4. Dashboard, empty, and the create-campaign form', async () => {
        // Dashboard, empty.
        await see('Campaign Dashboard');
        await see('No campaigns yet');
        await see('0 of 0 campaigns');
        for (const text of ['Total Campaigns', 'Active', 'Pending', 'Expired']) await see(text);
        await openMenu();
        await see(name);
        await page.getByRole('link', { name: 'Dashboard', exact: true }).and(page.locator('[aria-current="page"]')).waitFor();
        await openMenu();
        await shot('dashboard-empty');
        await titled('Campaign Dashboard — Tapedeck');
        await accessible('empty dashboard');

        // Create-campaign form: every validation message, errors clearing on edit.
        await page.getByRole('button', { name: 'Create Your First Campaign' }).click();
        await page.waitForURL(`${origin}/createCampaign`);
        expect(await page.getByLabel('Session Limit').inputValue()).toBe('5');
        expect(await page.getByLabel('Start Date').inputValue()).not.toBe('');
        await page.getByRole('button', { name: 'Create Campaign', exact: true }).last().click();
        for (const text of ['Campaign name is required', 'At least one domain is required', 'End date is required']) await see(text);
        await shot('create-errors');
        await titled('Create Campaign — Tapedeck');
        await accessible('create-campaign form with errors');
        // The date and select fields line up: one height, one width, side by side on a wide screen.
        const boxes = await Promise.all(
          ['Start Date', 'End Date', 'Keep Recordings', 'Visitor IP Address'].map(
            async (label) => (await page.getByLabel(label, { exact: true }).boundingBox())!,
          ),
        );
        const [startBox, endBox, keepBox, ipBox] = boxes.map((b) => ({
          x: Math.round(b.x),
          y: Math.round(b.y),
          width: Math.round(b.width),
          height: Math.round(b.height),
        }));
        expect(new Set([startBox, endBox, keepBox, ipBox].map((b) => `${b.width}x${b.height}`)).size, 'date and select fields of one size').toBe(1);
        expect([startBox.x, endBox.x]).toEqual([keepBox.x, ipBox.x]);
        if (device.viewport.width >= 1024) expect([startBox.y, keepBox.y]).toEqual([endBox.y, ipBox.y]);
        await page.getByLabel('Campaign Name').fill('Spring Sale');
        expect(await page.getByText('Campaign name is required').count()).toBe(0);
        await page.getByLabel('Domain to Accept Traffic From').fill('shop.example.com, not a domain');
        const start = await page.getByLabel('Start Date').inputValue();
        await page.getByLabel('End Date').fill(start.replace(/^\d{4}/, (y) => String(Number(y) - 1)));
        await page.getByRole('button', { name: 'Create Campaign', exact: true }).last().click();
        await see(/^Please enter valid domains \(e\.g\., /);
        await see('End date must be after start date');
        await page.getByLabel('Domain to Accept Traffic From').fill('shop.example.com, localhost:3000');
        await page.getByLabel('End Date').fill(start.replace(/^\d{4}/, (y) => String(Number(y) + 1)));
        // While sending (the request is held here): 'Creating Campaign...' and inputs disabled.
        let releaseCreate!: () => void;
        const createHeld = new Promise<void>((resolve) => (releaseCreate = resolve));
        await page.route('**/api/v1/campaign/create', async (route) => {
          await createHeld;
          await route.continue();
        });
        await page.getByRole('button', { name: 'Create Campaign', exact: true }).last().click();
        await page.getByRole('button', { name: 'Creating Campaign...' }).waitFor();
        expect(await page.getByLabel('Campaign Name').isDisabled()).toBe(true);
        releaseCreate();
        await page.waitForURL(`${origin}/dashboard`);
        await page.unroute('**/api/v1/campaign/create');
      });

      await step('5. Dashboard with the campaign and its install script', async () => {
        // Dashboard with the campaign: badge, counters, filters, script download and copy.
        await page.getByTestId('campaign-row').waitFor();
        await see('1 of 1 campaigns');
        await see('5 sessions');
        await page.locator('.badge-active', { hasText: 'Active' }).waitFor();
        await page.getByPlaceholder('Search campaigns...').fill('LOCALHOST');
        await see('1 of 1 campaigns');
        await page.getByPlaceholder('Search campaigns...').fill('zzz');
        await see('No matching campaigns');
        await page.getByPlaceholder('Search campaigns...').fill('');
        await page.getByLabel('Status').selectOption('Expired');
        await see('0 of 1 campaigns');
        await page.getByLabel('Status').selectOption('all');
        const campaigns = (await page.evaluate(() => fetch('/api/v1/campaign/getAll').then((r) => r.json()))) as { data: Campaign[] };
        campaignId = campaigns.data[0].id;
        // The one-line tag is in sight with its own copy button (the recommended install).
        const tag = `<script async src="${origin}/t/${campaignId}.js"></script>`;
        await see(tag);
        await see('Recommended:');
        await page.getByRole('button', { name: 'Copy tag' }).click();
        await page.getByRole('button', { name: 'Copied!' }).waitFor();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(tag);
        await page.getByRole('button', { name: 'Copy tag' }).waitFor();
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
        expect(download.suggestedFilename()).toBe(`magicFormat-${campaignId}.js`);
        const script = fs.readFileSync((await download.path())!, 'utf8');
        expect(script).toContain(`"${campaignId}"`);
        expect(script).toContain(JSON.stringify(origin));
        await page.getByRole('button', { name: 'Copy Script' }).click();
        await page.getByRole('button', { name: 'Copied!' }).waitFor();
        // Pasted into HTML it is a script element, not text (the copy-and-record test runs it on a site).
        const copied = await page.evaluate(() => navigator.clipboard.readText());
        expect(copied).toMatch(/^<script>\n[^]*\n<\/script>$/);
        expect(copied).toContain(`"${campaignId}"`);
        await shot('dashboard');
        await accessible('dashboard');
      });

      await step('6. Campaign sessions page and the details modal', async () => {
        // Two recorded sessions: a human one with a real recording and a bot.
        const now = Date.now();
        human = `human${device.name}0123456789`;
        const bot = `bot${device.name}0123456789`;
        // Its last batch ten minutes ahead: still recording (common/recording-now.ts) until the saved-replays screen below, however slow the machine.
        await insertSession(server.db, {
          campaign_id: campaignId,
          id: human,
          started_at: now - 60_000,
          last_activity_at: now + 10 * 60_000,
          remote_ip: '203.0.113.7',
          country: 'France',
          language: 'fr-FR',
          timezone: 'Europe/Paris',
          hardware_concurrency: 8,
          cookies_enabled: 1,
          has_focus: 1,
          user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140',
          has_human_input: 1,
          event_count: demoEvents.length,
        });
        await appendChunk(server.db, { campaignId, sessionId: human, seq: 0, events: demoEvents });
        await insertSession(server.db, {
          campaign_id: campaignId,
          id: bot,
          started_at: now - 30_000,
          remote_ip: '198.51.100.2',
          language: 'en-US',
          timezone: 'UTC',
          hardware_concurrency: 2,
          webdriver: 1,
          is_bot: 1,
          bot_reason: 'webdriver',
        });

        // Campaign sessions page.
        await page.getByRole('link', { name: 'View Recordings' }).click();
        await page.waitForURL(`${origin}/campaign/${campaignId}`);
        await see('Campaign Sessions');
        await page.getByTestId('session-card').nth(1).waitFor();
        const counter = (label: string) => page.locator('.stat', { hasText: label }).locator('.stat-value').textContent();
        expect(await counter('Total Sessions')).toBe('2');
        expect(await counter('Human Users')).toBe('1');
        expect(await counter('Bot Traffic')).toBe('1');
        // The spec's browser facts are on each card, folded under "Browser details".
        for (const card of await page.getByTestId('session-card').all()) await card.getByText('Browser details').click();
        for (const text of [
          human.slice(0, 8),
          human,
          'Human User',
          'Bot Traffic',
          '203.0.113.7',
          'France',
          'Unknown',
          'fr-FR',
          '8 cores',
          'Europe/Paris',
          'Cookies enabled',
          'Focus active',
          'Windowed',
        ])
          await see(text);
        // A campaign made with the form keeps recordings for the default 90 days, and says so.
        await see('Recordings are kept for 90 days');
        // The campaign's four tabs fit the screen, a phone's too (none scrolled out of sight).
        expect(await page.locator('.campaign-tabs').evaluate((bar) => bar.scrollWidth - bar.clientWidth)).toBeLessThanOrEqual(0);
        await shot('sessions');
        await titled('Campaign Sessions — Tapedeck');
        // 'Bot Traffic' and 'Human User' badges are on screen: their contrast is checked here.
        await accessible('sessions');
        await page.getByLabel('Session type').selectOption('bot');
        await page.locator('.session-card', { hasText: 'Human User' }).waitFor({ state: 'detached' });
        await page.locator('.session-card', { hasText: 'Bot Traffic' }).waitFor();
        expect(await page.getByTestId('session-card').count()).toBe(1);
        await page.getByLabel('Session type').selectOption('all');
        await page.getByPlaceholder('Search by session ID, IP address, or language...').fill('fr-FR');
        await page.locator('.session-card', { hasText: 'Bot Traffic' }).waitFor({ state: 'detached' });
        await page.locator('.session-card', { hasText: 'Human User' }).waitFor();
        await page.getByPlaceholder('Search by session ID, IP address, or language...').fill('nothing-matches');
        await see('No sessions found');
        await page.getByPlaceholder('Search by session ID, IP address, or language...').fill('');
        await page.getByTestId('session-card').nth(1).waitFor();
        await page.getByRole('button', { name: 'Refresh' }).click();
        // Kept on the device for the saved-replays screen below ('Still recording': it is not complete).
        const humanCard = page.locator('.session-card', { hasText: 'Human User' });
        await humanCard.getByRole('button', { name: 'Save for offline' }).click();
        await humanCard.getByText('Available offline').waitFor();

        // Details modal: every field, closes on Escape.
        await page.locator('.session-card', { hasText: 'Human User' }).getByRole('button', { name: 'View Details' }).click();
        const details = page.getByRole('dialog', { name: 'Session Details' });
        await details.waitFor();
        for (const text of ['User Agent', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140', 'Timezone']) await details.getByText(text).first().waitFor();
        await shot('session-details');
        await accessible('session details modal');
        // A body that scrolls (on a phone) is reachable by keyboard.
        const body = details.locator('.modal-body');
        const scrolls = await body.evaluate((el) => el.scrollHeight > el.clientHeight + 1);
        expect(await body.getAttribute('tabindex')).toBe(scrolls ? '0' : null);
        // A native modal dialog: the page behind it is inert, for the mouse, keyboard and screen readers.
        expect(await details.evaluate((dialog) => dialog.matches(':modal'))).toBe(true);
        for (let i = 0; i < 5; i++) {
          await page.keyboard.press('Tab');
          expect(await details.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
        }
        await page.keyboard.press('Escape');
        await details.waitFor({ state: 'detached' });
      });

      await step('7. Replay page, saved replays, replay errors', async () => {
        // Session replay page.
        await page.locator('.session-card', { hasText: 'Human User' }).getByRole('link', { name: 'Watch Replay' }).click();
        await page.waitForURL(`${origin}/campaign/${campaignId}/session/${human}`);
        await see('Session Replay');
        await see('Session Information');
        await see(`${demoEvents.length} events recorded`);
        await page.locator('.rr-player').waitFor();
        const replayBox = await page.locator('.rr-player').boundingBox();
        expect(replayBox!.width).toBeLessThanOrEqual(Math.min(1024 + 40, device.viewport.width));
        await page.locator('.player-speeds button', { hasText: '8x' }).waitFor();
        expect(await speeds('.player-card')).toEqual(['0.5x', '1x', '2x', '4x', '8x']);
        await shot('replay');
        await titled('Session Replay — Tapedeck');
        await accessible('replay page with the player loaded');

        // Saved replays: the 'Still recording' badge is on screen, its contrast checked.
        await page.goto(`${origin}/saved`);
        await page.getByRole('heading', { name: 'Saved replays' }).waitFor();
        await page.locator('.badge', { hasText: 'Still recording' }).waitFor();
        await titled('Saved replays — Tapedeck');
        await shot('saved');
        await accessible('saved replays');

        // Replay errors: unknown session → 404 text, 'Go Back' to the campaign.
        await page.goto(`${origin}/campaign/${campaignId}/session/doesnotexist123`);
        await see('Error Loading Session');
        await see('Session not found. It may have been deleted or does not exist.');
        await page.getByRole('button', { name: 'Try Again' }).waitFor();
        await shot('replay-error');
        await accessible('replay error');
        await page.getByRole('button', { name: 'Go Back' }).click();
        await page.waitForURL(`${origin}/campaign/${campaignId}`);
      });

      await step('8. Delete the campaign, the 404 page, logout', async () => {
        // Delete modal, then back on the empty dashboard.
        await page.getByRole('button', { name: 'Delete Campaign' }).click();
        const confirm = page.getByRole('dialog', { name: 'Delete Campaign?' });
        await confirm.getByText('All sessions (2)').waitFor();
        await shot('delete-modal');
        await accessible('delete modal');
        await confirm.getByRole('button', { name: 'Delete Campaign' }).click();
        await page.waitForURL(`${origin}/dashboard`);
        await see('No campaigns yet');
        await page.getByRole('status').filter({ hasText: 'Campaign deleted' }).waitFor();
        await shot('campaign-deleted');
        await accessible('dashboard after deleting');

        // 404 page.
        await page.goto(`${origin}/no/such/page`);
        await see('Page not found');
        await page.getByRole('button', { name: 'Go Back' }).waitFor();
        await page.getByRole('navigation', { name: 'Helpful links' }).getByRole('link', { name: 'Create Campaign' }).waitFor();
        await shot('not-found');
        await titled('Page not found — Tapedeck');
        await accessible('404');
        await page.getByRole('button', { name: 'Go Home' }).click();
        await page.waitForURL(`${origin}/`);
        await see('Ready to continue optimizing?');
        await see(`Welcome back, ${name}!`);
        await see('Ready to optimize more?');
        await shot('landing-signed-in');
        await accessible('landing signed in');

        // Logout, then the callback page without a code.
        await openMenu();
        await page.getByRole('button', { name: 'Logout' }).click();
        await openMenu();
        await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign in with Google' }).waitFor();
        expect(await page.getByText('Please sign in to continue.').count()).toBe(0);
        await page.goto(`${origin}/auth/google/callback`);
        await see('No authorization code received.');
        await titled('Signing in — Tapedeck');
        await accessible('sign-in callback error');
        await page.getByRole('button', { name: 'Return to Home' }).click();
        await page.waitForURL(`${origin}/`);
        await shot('signed-out');
      });

      expect(errors).toEqual([]);
      await context.close();
    });
  }

  // What the dashboard's copy buttons put on the clipboard is HTML a site owner pastes into a page:
  // pasted into a visitor's site, each records a session that the API then lists.
  it('copied script and copied tag each record a session when pasted into a page', async () => {
    const owner = await signIn(server, { name: 'Pat Paster', email: 'pat.paster@example.test' });
    const origin = server.config.publicUrl;
    const created = await fetch(`${server.url}/api/v1/campaign/create`, {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Paste test',
        domains: `127.0.0.1:${site.port}`,
        limit: 0,
        start_date_time: Date.now() - 1000,
        end_date_time: Date.now() + 86_400_000,
      }),
    });
    expect(created.status).toBe(201);
    const campaign = ((await created.json()) as { data: Campaign }).data;

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await context.addCookies([
      { name: ACCESS_COOKIE, value: owner.jar.get(ACCESS_COOKIE)!, url: origin },
      { name: REFRESH_COOKIE, value: owner.jar.get(REFRESH_COOKIE)!, domain: new URL(origin).hostname, path: '/api/v1/auth' },
    ]);
    const dashboard = await context.newPage();
    await dashboard.goto(`${origin}/dashboard`);
    await dashboard.getByTestId('campaign-row').waitFor();
    const sessionIds = async () => {
      const answer = (await dashboard.evaluate((path) => fetch(path).then((r) => r.json()), `/api/v1/streaming/sessions/${campaign.id}/`)) as SessionsResponse;
      return answer.sessions.map((session) => session.sessionId).sort();
    };

    /** Pastes the clipboard into the site's page, visits it in a new tab, and returns the new session's id. */
    const pasteAndVisit = async (button: string, shape: RegExp) => {
      await dashboard.getByRole('button', { name: button }).click();
      await dashboard.getByRole('button', { name: 'Copied!' }).waitFor();
      const html = await dashboard.evaluate(() => navigator.clipboard.readText());
      expect(html).toMatch(shape);
      await dashboard.getByRole('button', { name: button }).waitFor();
      const before = await sessionIds();
      site.install(html);
      const visitor = await context.newPage();
      await visitor.goto(`${site.url}/checkout.html`);
      // The pasted HTML is a script, not text on the page.
      expect(await visitor.locator('body').innerText()).not.toContain(campaign.id);
      await recorderRunning(visitor);
      await visitor.click('#buy');
      await flushRecorder(visitor);
      let added: string[] = [];
      await expect.poll(async () => (added = (await sessionIds()).filter((id) => !before.includes(id))).length, { timeout: 30_000 }).toBe(1);
      await visitor.close();
      return added[0];
    };

    const fromScript = await pasteAndVisit('Copy Script', /^<script>\n[^]+\n<\/script>$/);
    const fromTag = await pasteAndVisit('Copy tag', /^<script async src="[^"]+\/t\/[^"]+\.js"><\/script>$/);
    expect(fromScript).not.toBe(fromTag);
    expect(await sessionIds()).toEqual([fromScript, fromTag].sort());
    await context.close();
  });
});
