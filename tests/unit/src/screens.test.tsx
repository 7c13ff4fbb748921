import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import type { FunctionComponent } from 'react';
import { Route as DashboardRoute } from '../../../src/routes/_authed/dashboard.js';
import { CreateCampaign } from '../../../src/screens/CreateCampaign.js';
import { renderRoute, renderRouter } from '../../helpers/render-router.js';

// Screens in jsdom on a real router and query client; only the network is scripted.
const loader = fs.readFileSync(path.resolve(process.cwd(), 'tracker/loader.js'), 'utf8');
type Answer = (url: string, init: RequestInit) => Response | Promise<Response>;

function renderScreen(Screen: FunctionComponent, answer: Answer) {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: String(input), init });
    return answer(String(input), init);
  });
  const rootRoute = createRootRoute();
  const screenRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: Screen });
  const dashboardRoute = createRoute({ getParentRoute: () => rootRoute, path: '/dashboard', component: () => <p>dashboard page</p> });
  const router = createRouter({ routeTree: rootRoute.addChildren([screenRoute, dashboardRoute]), history: createMemoryHistory({ initialEntries: ['/'] }) });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderRouter(router, queryClient);
  return { calls, router };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const day = 86_400_000;
const campaigns = [
  { id: 'c-active', name: 'Spring Sale', domains: 'shop.example.com', limit: 0, start_date_time: Date.now() - day, end_date_time: Date.now() + day },
  { id: 'c-pending', name: 'Launch', domains: 'launch.example.org', limit: 10, start_date_time: Date.now() + day, end_date_time: Date.now() + 2 * day },
];

// The dashboard's route as the route tree mounts it: its loader fills the cache, the screen reads it.
// The workspaces list is answered as the server answers it, whatever the test scripts for the rest.
const workspaces = [{ id: 'w-1', name: 'Personal', role: 'owner', personal: true, permissions: ['campaigns.manage'] }];
const openDashboard = (answer: (url: string) => Response) =>
  renderRoute(DashboardRoute, '/dashboard', '/dashboard', (url) => (url.startsWith('/api/v1/workspaces') ? Response.json({ data: workspaces }) : answer(url)));

describe('dashboard screen', () => {
  it('shows skeleton rows, then the error box; Retry loads the campaigns', async () => {
    let failing = true;
    openDashboard((url) => {
      if (url.startsWith('/static/')) return new Response(loader);
      return failing ? Response.json({ error: 'boom' }, { status: 500 }) : Response.json({ data: campaigns });
    });
    expect((await screen.findAllByTestId('skeleton-row')).length).toBeGreaterThan(0);
    const box = (await screen.findByText('Error loading campaigns')).closest('[role="alert"]') as HTMLElement;
    expect(within(box).getByText('HTTP error! status: 500')).toBeTruthy();
    failing = false;
    fireEvent.click(within(box).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Spring Sale')).toBeTruthy();
    expect(screen.getByText('2 of 2 campaigns')).toBeTruthy();
    expect(screen.getByText('No limit')).toBeTruthy();
    expect(screen.getByText('10 sessions')).toBeTruthy();
    expect(screen.queryByText('Error loading campaigns')).toBeNull();
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'Pending' } });
    expect(screen.getByText('1 of 2 campaigns')).toBeTruthy();
    expect(screen.queryByText('Spring Sale')).toBeNull();
  });

  it("shows 'No campaigns yet' with 'Create Your First Campaign'", async () => {
    openDashboard((url) => (url.startsWith('/static/') ? new Response(loader) : Response.json({ data: [] })));
    expect(await screen.findByText('No campaigns yet')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create Your First Campaign' })).toBeTruthy();
  });
});

describe('create-campaign screen', () => {
  const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

  it("clears a field's error when edited and shows the server's error text", async () => {
    renderScreen(CreateCampaign, () => Response.json({ error: 'You may not create campaigns for this domain' }, { status: 403 }));
    fireEvent.click(await screen.findByRole('button', { name: 'Create Campaign' }));
    expect(screen.getByText('Campaign name is required')).toBeTruthy();
    expect(screen.getByLabelText('Campaign Name').getAttribute('aria-invalid')).toBe('true');
    fill('Campaign Name', 'Spring');
    expect(screen.queryByText('Campaign name is required')).toBeNull();
    expect(screen.getByText('At least one domain is required')).toBeTruthy();
    fill('Domain to Accept Traffic From', 'shop.example.com');
    fill('End Date', '2099-01-01T10:00');
    fireEvent.click(screen.getByRole('button', { name: 'Create Campaign' }));
    expect(await screen.findByText('You may not create campaigns for this domain')).toBeTruthy();
  });

  it("disables the inputs and says 'Creating Campaign...' while sending, then goes to the dashboard", async () => {
    let answer!: (r: Response) => void;
    const { calls, router } = renderScreen(CreateCampaign, () => new Promise<Response>((resolve) => (answer = resolve)));
    await screen.findByLabelText('Campaign Name');
    fill('Campaign Name', 'Spring');
    fill('Domain to Accept Traffic From', 'shop.example.com, localhost:3000');
    fill('Session Limit', 'abc');
    fill('End Date', '2099-01-01T10:00');
    // A limit that is not a whole number 1–20 or 0 is refused, never sent as 0 (no limit).
    fireEvent.click(screen.getByRole('button', { name: 'Create Campaign' }));
    expect(await screen.findByText('Session limit must be a whole number from 1 to 20, or 0 for no limit')).toBeTruthy();
    expect(calls).toHaveLength(0);
    fill('Session Limit', '0');
    fireEvent.click(screen.getByRole('button', { name: 'Create Campaign' }));
    expect(await screen.findByRole('button', { name: 'Creating Campaign...' })).toHaveProperty('disabled', true);
    expect(screen.getByLabelText('Campaign Name')).toHaveProperty('disabled', true);
    const body = JSON.parse(String(calls[0].init.body));
    expect(body).toMatchObject({
      name: 'Spring',
      domains: 'shop.example.com, localhost:3000',
      limit: 0,
      retention_days: 90,
      ip_mode: 'truncated',
      captureConsole: true,
    });
    answer(Response.json({ data: { id: 'new' } }, { status: 201 }));
    expect(await screen.findByText('dashboard page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('takes a pasted web address as its host and port and says so; names the entry that is wrong', async () => {
    const { calls } = renderScreen(CreateCampaign, () => new Promise<Response>(() => undefined));
    await screen.findByLabelText('Campaign Name');
    fill('Campaign Name', 'Leaf and Kettle');
    fill('Domain to Accept Traffic From', 'https://leafandkettle.com/, shop.example, not a domain');
    expect(screen.getByRole('status').textContent).toBe('From a web address only its host and port are kept: https://leafandkettle.com/ → leafandkettle.com');
    fireEvent.click(screen.getByRole('button', { name: '1 week' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create Campaign' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Please enter valid domains (e.g., example.com, localhost:3000)')).toBeTruthy();
    expect(within(alert).getByText('Not a valid domain: “not a domain”')).toBeTruthy();
    expect(calls).toHaveLength(0);
    fill('Domain to Accept Traffic From', 'https://leafandkettle.com:8443/shop, shop.example');
    fireEvent.click(screen.getByRole('button', { name: 'Create Campaign' }));
    await screen.findByRole('button', { name: 'Creating Campaign...' });
    expect(JSON.parse(String(calls[0].init.body)).domains).toBe('leafandkettle.com:8443, shop.example');
  });

  it('offers quick end dates counted from the start: 1 week, 1 month, 3 months', async () => {
    renderScreen(CreateCampaign, () => new Promise<Response>(() => undefined));
    await screen.findByLabelText('Campaign Name');
    fill('Start Date', '2027-01-31T09:30');
    const choices = within(screen.getByRole('group', { name: 'Record for' }));
    const endAfter = (label: string) => {
      fireEvent.click(choices.getByRole('button', { name: label }));
      return (screen.getByLabelText('End Date') as HTMLInputElement).value;
    };
    expect([endAfter('1 week'), endAfter('1 month'), endAfter('3 months')]).toEqual(['2027-02-07T09:30', '2027-02-28T09:30', '2027-04-30T09:30']);
  });
});
