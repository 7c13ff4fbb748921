import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../helpers/browser.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { step } from './step.js';
import { expectAccessible } from './a11y.js';
import { openAsOwner, useVisitorRig } from './tracker-site.js';
import { insertSession } from '../../server/recordings/seed.js';

// Issue 38 in the browser: the owner opens Webhooks from the Members screen, adds a webhook
// pointing at a receiver on loopback (WEBHOOK_ALLOW_PRIVATE=1), sees its secret once, presses
// Test, and sees the delivery in the log as the receiver got it. A session that ended with errors
// shows as an alert on the dashboard's campaign card, whose list links to its replay.

describe.skipIf(!hasChromium)('webhooks', () => {
  const rig = useVisitorRig({}, { owner: 'Wendy Webhooks', campaign: true, env: { WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_POLL_MS: '100' } });
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => receiver?.close());

  it('adds a webhook, shows its secret once, and logs the test delivery', async () => {
    const origin = rig.server.config.publicUrl;
    const workspaces = (await (await fetch(`${rig.server.url}/api/v1/workspaces`, { headers: rig.owner.headers })).json()) as { data: { id: string }[] };
    const workspaceId = workspaces.data[0].id;
    const page = await openAsOwner(rig, `/workspaces/${workspaceId}/members`, { width: 1280, height: 800 }, false);

    await step('1. From Members, the owner opens Webhooks and adds one for errors, in Slack format', async () => {
      await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
      await page.waitForURL(`${origin}/workspaces/${workspaceId}/webhooks`);
      await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
      await page.getByLabel('Endpoint URL').fill(`${receiver.url}/hook`);
      await page.getByLabel('A session ended with rage or dead clicks').check();
      await page.getByLabel('Format').selectOption('slack');
      await page.getByRole('button', { name: 'Add webhook' }).click();
      expect(await page.getByTestId('webhook-secret').inputValue()).toMatch(/^whsec_/);
      await page
        .getByTestId('webhook-line')
        .filter({ hasText: `${receiver.url}/hook` })
        .waitFor();
      await expectAccessible(page, 'Webhooks screen with a new secret');
    });

    await step('2. Test sends a delivery the receiver gets, and the log shows it delivered with 200', async () => {
      const line = page.getByTestId('webhook-line').filter({ hasText: `${receiver.url}/hook` });
      await line.getByRole('button', { name: 'Test' }).click();
      const delivered = page.getByTestId('delivery-line').filter({ hasText: 'delivered' });
      await delivered.waitFor({ timeout: 15_000 });
      expect(await delivered.textContent()).toContain('200');
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0].headers['tapedeck-event']).toBe('webhook.test');
      expect(JSON.parse(receiver.received[0].body)).toEqual({ text: 'A test delivery from Tapedeck.' });
    });

    await step('3. After a reload the secret is not shown again', async () => {
      await page.reload();
      await page.getByTestId('webhook-line').first().waitFor();
      expect(await page.getByTestId('webhook-secret').count()).toBe(0);
    });
  });

  it("shows a session that ended with errors as the campaign card's alert, listed with its replay", async () => {
    const ended = Date.now() - 40 * 60_000;
    const id = 'e'.repeat(32);
    await insertSession(rig.server.db, {
      campaign_id: rig.campaignId,
      id,
      started_at: ended - 60_000,
      last_activity_at: ended,
      has_human_input: 1,
      error_count: 3,
    });
    const page = await openAsOwner(rig, '/dashboard', { width: 1280, height: 800 }, false);
    await step('1. The dashboard badge counts the alert and opens the list', async () => {
      const badge = page.getByTestId('alerts-badge');
      expect(await badge.textContent()).toBe('1 alert');
      await badge.click();
      await page.waitForURL(`${rig.server.config.publicUrl}/campaign/${rig.campaignId}/alerts`);
      const line = page.getByTestId('alert-line');
      expect(await line.textContent()).toContain('A session ended with errors');
      expect(await line.getByRole('link', { name: 'Watch the replay' }).getAttribute('href')).toBe(`/campaign/${rig.campaignId}/session/${id}`);
      await expectAccessible(page, 'Campaign alerts');
    });
  });
});
