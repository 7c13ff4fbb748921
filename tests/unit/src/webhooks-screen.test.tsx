import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { Route as WebhooksRoute } from '../../../src/routes/_authed/workspaces/$workspaceId/webhooks.js';
import { renderRoute } from '../../helpers/render-router.js';

// The Webhooks screen in jsdom on a real router and query client; only the network is scripted.
// A role without webhooks.manage sees why and nothing to press; an admin adds one and sees its secret once.

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const workspace = (role: string, permissions: string[]) => [{ id: 'w-1', name: 'Shop', role, personal: false, permissions }];

function open(role: string, permissions: string[], answer: (url: string) => Response = () => Response.json({ data: [] })) {
  renderRoute(WebhooksRoute, '/workspaces/$workspaceId/webhooks', '/workspaces/w-1/webhooks', (url) =>
    url === '/api/v1/workspaces' ? Response.json({ data: workspace(role, permissions) }) : answer(url),
  );
}

describe('webhooks screen', () => {
  it('tells a member why there is nothing to manage, and asks for no webhooks', async () => {
    const asked: string[] = [];
    open('member', ['campaigns.view', 'sessions.watch'], (url) => (asked.push(url), Response.json({ data: [] })));
    expect((await screen.findByTestId('role-note')).textContent).toBe("Members can't manage webhooks");
    expect(screen.queryByRole('button', { name: 'Add webhook' })).toBeNull();
    expect(asked.filter((url) => url.startsWith('/api/v1/webhooks'))).toEqual([]);
  });

  it('lets an admin add a webhook and shows its secret once', async () => {
    const hooks: unknown[] = [];
    open('admin', ['webhooks.manage'], (url) => {
      if (url === '/api/v1/webhooks') {
        hooks.push({
          id: 'h-1',
          workspace_id: 'w-1',
          campaign_id: null,
          url: 'https://example.com/in',
          events: ['session.errors'],
          format: 'json',
          created_at: 1,
        });
        return Response.json({ data: { id: 'h-1', secret: 'whsec_shown_once' } }, { status: 201 });
      }
      return Response.json({ data: url.startsWith('/api/v1/webhooks?') ? hooks : [] });
    });
    fireEvent.change(await screen.findByLabelText('Endpoint URL'), { target: { value: 'https://example.com/in' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add webhook' }));
    expect(((await screen.findByTestId('webhook-secret')) as HTMLInputElement).value).toBe('whsec_shown_once');
    expect(await screen.findByText('https://example.com/in')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Test' })).toBeTruthy();
  });
});
