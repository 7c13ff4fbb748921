import { describe, expect, it, onTestFailed } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium } from '../helpers/browser.js';
import { step } from './step.js';
import { expectAccessible } from './a11y.js';
import { openAsOwner, useVisitorRig } from './tracker-site.js';

// Issue 38 in the browser: the owner makes an API key on the Members screen, sees it once, calls
// the API with it from outside the browser (Bearer), revokes it after a confirmation, and the
// same call is refused at once.

describe.skipIf(!hasChromium)('API keys', () => {
  const rig = useVisitorRig({}, { owner: 'Kim Owner', campaign: true });

  function diagnose(page: Page) {
    const lines: string[] = [];
    page.on('console', (message) => lines.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => lines.push(`pageerror: ${error.message}`));
    onTestFailed(() => console.log(`failed at ${page.url()}\n${lines.join('\n')}`));
  }

  it('makes a key, shows it once, lets it call the API, and revokes it at once', async () => {
    const workspaces = (await (await fetch(`${rig.server.url}/api/v1/workspaces`, { headers: rig.owner.headers })).json()) as { data: { id: string }[] };
    const workspaceId = workspaces.data[0].id;
    const listWithKey = (key: string) => fetch(`${rig.server.url}/api/v1/campaign/getAll`, { headers: { authorization: `Bearer ${key}` } });
    const owner = await openAsOwner(rig, `/workspaces/${workspaceId}/members`, { width: 1280, height: 800 }, false);
    diagnose(owner);
    const keys = owner.getByTestId('api-keys');
    let key = '';

    await step('1. The owner makes a key with a name and one scope, and sees it once', async () => {
      await keys.getByRole('heading', { name: 'API keys' }).waitFor();
      await keys.getByLabel('Name').fill('Nightly export');
      await keys.getByRole('checkbox', { name: /sessions:read/ }).check();
      await keys.getByRole('button', { name: 'Create key' }).click();
      key = await keys.getByTestId('api-key-value').inputValue();
      expect(key).toMatch(/^td_[\w-]{43}$/);
      await keys.getByText('it will not be shown again').waitFor();
      await keys
        .getByTestId('api-key-line')
        .filter({ hasText: 'Nightly export' })
        .filter({ hasText: key.slice(0, 11) })
        .waitFor();
      await expectAccessible(owner, 'Members screen with a new API key');
    });

    await step('2. The key calls the API from outside the browser', async () => {
      const answer = await listWithKey(key);
      expect(answer.status).toBe(200);
      const campaigns = ((await answer.json()) as { data: { id: string }[] }).data;
      expect(campaigns.map((c) => c.id)).toEqual([rig.campaignId]);
    });

    await step('3. Shown once: after a reload the list has its prefix and last use, not the key', async () => {
      await owner.reload();
      const line = keys.getByTestId('api-key-line').filter({ hasText: 'Nightly export' });
      await line.filter({ hasText: 'Last used' }).waitFor();
      expect(await keys.getByTestId('api-key-value').count()).toBe(0);
      expect(await owner.content()).not.toContain(key);
    });

    await step('4. The owner revokes it after a confirmation, and the same call is refused', async () => {
      await keys.getByRole('button', { name: 'Revoke the API key Nightly export' }).click();
      const dialog = owner.getByRole('dialog');
      await dialog.getByText('stops working at once').waitFor();
      await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
      await keys.getByText('No API keys yet.').waitFor();
      const answer = await listWithKey(key);
      expect(answer.status).toBe(401);
      expect(((await answer.json()) as { error: string }).error).toBe('This API key was revoked');
    });
  });
});
