import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { TEST_PASSWORD } from '../helpers/signin.js';
import { buildTracker } from '../../tracker/build.mjs';
import type { Campaign, SessionsResponse } from '../../common/api-types.js';
import { step, until } from './step.js';
import { expectAccessible } from './a11y.js';
import { flushRecorder, recorderRunning, startSite, type Site } from './tracker-site.js';

// Issue 15: a site owner edits a campaign in the PWA. Its domains move from site A to site B
// (two sites on their own ports), a visitor on B is then recorded and lists, and the card and
// the details show the visitor's address as the campaign stores it by default: truncated.

describe.skipIf(!hasChromium)('editing a campaign', () => {
  let server: TestServer;
  let browser: Browser;
  let siteA: Site;
  let siteB: Site;

  beforeAll(async () => {
    [server, browser, siteA, siteB] = await Promise.all([startServer({}, { privateDist: true }), launchChromium(), startSite(), startSite()]);
    await buildTracker(path.join(server.config.distDir, 'tracker'));
  });

  afterAll(async () => {
    await browser?.close();
    await siteA?.close();
    await siteB?.close();
    await server?.close();
  });

  function diagnose(page: Page) {
    const lines: string[] = [];
    page.on('console', (message) => lines.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => lines.push(`pageerror: ${error.message}`));
    onTestFailed(() => console.log(`failed at ${page.url()}\n${lines.join('\n')}`));
  }

  /** A visitor's page on `site` with the campaign's loader: the status of the first post to the ingest, or 'refused'. */
  async function visit(site: Site, campaignId: string): Promise<number | 'refused'> {
    const origin = server.config.publicUrl;
    site.install(`<script src="${origin}/t/${campaignId}.js" async></script>`);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      // A refused origin gets no CORS header, so its read of the campaign's rules fails in the page
      // and the recorder never starts; an accepted one records and its post answers.
      const answered = new Promise<number | 'refused'>((resolve) => {
        const ingest = (url: string) => url.startsWith(`${origin}/api/v1/ingest/`);
        page.on('response', (response) => ingest(response.url()) && response.request().method() === 'POST' && resolve(response.status()));
        page.on('requestfailed', (request) => ingest(request.url()) && resolve('refused'));
      });
      await page.goto(`${site.url}/checkout.html`);
      void recorderRunning(page)
        .then(async () => {
          await page.click('#buy');
          await flushRecorder(page);
        })
        .catch(() => {}); // the page closes first when refused
      return await answered;
    } finally {
      await context.close();
    }
  }

  it('changes the domains in the edit form, records a visitor from the new domain, and shows the truncated IP', async () => {
    const origin = server.config.publicUrl;
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const owner = await context.newPage();
    diagnose(owner);
    let campaign!: Campaign;

    await step('1. Sign in', async () => {
      await owner.goto(`${origin}/`);
      await owner.getByRole('button', { name: 'Sign in with Google' }).first().click();
      await owner.getByLabel('Name').fill('Edith Editor');
      await owner.getByLabel('Email').fill('edith@shop.example');
      await owner.getByLabel('Password').fill(TEST_PASSWORD);
      await owner.getByRole('button', { name: 'Sign in', exact: true }).click();
      await owner.waitForURL(`${origin}/dashboard`);
    });

    await step('2. Create a campaign for site A', async () => {
      await owner.getByRole('main').getByRole('link', { name: 'Create Campaign', exact: true }).click();
      await owner.waitForURL(`${origin}/createCampaign`);
      await owner.getByLabel('Campaign Name').fill('Edited study');
      await owner.getByLabel('Domain to Accept Traffic From').fill(`127.0.0.1:${siteA.port}`);
      // A limit that is not a number is refused, never taken as 0 (no limit).
      await owner.getByLabel('Session Limit').fill('');
      await owner.getByLabel('Session Limit').pressSequentially('abc');
      const start = await owner.getByLabel('Start Date').inputValue();
      await owner.getByLabel('End Date').fill(start.replace(/^\d{4}/, (year) => String(Number(year) + 1)));
      expect(await owner.getByLabel('Visitor IP Address').inputValue()).toBe('truncated');
      await owner.getByRole('button', { name: 'Create Campaign', exact: true }).last().click();
      await owner.getByText('Session limit must be a whole number from 1 to 20, or 0 for no limit').waitFor();
      await owner.getByLabel('Session Limit').fill('10');
      await owner.getByRole('button', { name: 'Create Campaign', exact: true }).last().click();
      await owner.waitForURL(`${origin}/dashboard`);
      await owner.getByTestId('campaign-row').filter({ hasText: 'Edited study' }).getByText(`127.0.0.1:${siteA.port}`).waitFor();
      campaign = ((await (await context.request.get(`${origin}/api/v1/campaign/getAll`)).json()) as { data: Campaign[] }).data[0];
      expect(campaign).toMatchObject({ domains: `127.0.0.1:${siteA.port}`, limit: 10, ip_mode: 'truncated', retention_days: 90 });
    });

    await step('3. A visitor on site B is refused while the campaign takes site A only', async () => {
      expect(await visit(siteB, campaign.id)).toBe('refused');
    });

    await step('4. Edit the domains to site B from the dashboard row', async () => {
      const row = owner.getByTestId('campaign-row').filter({ hasText: 'Edited study' });
      await row.getByRole('link', { name: 'Edit Edited study' }).click();
      await owner.waitForURL(`${origin}/campaign/${campaign.id}/edit`);
      await owner.getByRole('heading', { name: 'Edit Campaign' }).waitFor();
      // Opened with the stored campaign.
      expect(await owner.getByLabel('Campaign Name').inputValue()).toBe('Edited study');
      expect(await owner.getByLabel('Session Limit').inputValue()).toBe('10');
      // The create form's rules and messages.
      await owner.getByLabel('Domain to Accept Traffic From').fill('not a domain');
      await owner.getByRole('button', { name: 'Save Changes' }).click();
      await owner.getByText('Please enter valid domains (e.g., example.com, localhost:3000)').waitFor();
      await expectAccessible(owner, 'edit campaign form with an error');
      await owner.getByLabel('Domain to Accept Traffic From').fill(`127.0.0.1:${siteB.port}`);
      await owner.getByRole('button', { name: 'Save Changes' }).click();
      await owner.waitForURL(`${origin}/dashboard`);
      // The list shows the new value.
      await row.getByText(`127.0.0.1:${siteB.port}`).waitFor();
      const saved = ((await (await context.request.get(`${origin}/api/v1/campaign/getAll`)).json()) as { data: Campaign[] }).data[0];
      expect(saved).toEqual({ ...campaign, domains: `127.0.0.1:${siteB.port}` });
    });

    await step('5. A visitor on site B is recorded', async () => {
      expect(await visit(siteB, campaign.id)).toBe(200);
      await until('the session to list', async () => {
        const body = (await (await context.request.get(`${origin}/api/v1/streaming/sessions/${campaign.id}/`)).json()) as SessionsResponse;
        return body.sessions.length === 1;
      });
    });

    await step('6. The sessions page lists it with the truncated address', async () => {
      await owner.getByTestId('campaign-row').filter({ hasText: 'Edited study' }).getByRole('link', { name: 'View Recordings' }).click();
      await owner.waitForURL(new RegExp(`/campaign/${campaign.id}$`));
      const card = owner.getByTestId('session-card');
      await card.waitFor();
      await card.getByText('Browser details').click();
      await card.getByText('127.0.0.0 (truncated)', { exact: true }).waitFor();
      await card.getByRole('button', { name: 'View Details' }).click();
      await owner.getByRole('dialog').getByText('127.0.0.0 (truncated)', { exact: true }).waitFor();
      await owner.keyboard.press('Escape');
    });

    await step('7. Edit from the sessions page goes back there', async () => {
      await owner.getByRole('button', { name: 'Edit Campaign' }).click();
      await owner.waitForURL(`${origin}/campaign/${campaign.id}/edit?from=sessions`);
      await owner.getByLabel('Session Limit').fill('1');
      await owner.getByRole('button', { name: 'Save Changes' }).click();
      await owner.waitForURL(new RegExp(`/campaign/${campaign.id}$`));
      // Lowering the limit below the count keeps the sessions already recorded.
      await owner.getByTestId('session-card').getByText('Browser details').click();
      await owner.getByTestId('session-card').getByText('127.0.0.0 (truncated)', { exact: true }).waitFor();
    });

    await context.close();
  });
});
