import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { IssueMenu } from '../../../src/components/replay/IssueMenu.js';
import { CAPTURED_TAGS } from '../../../common/captured.js';
import type { ReplayEvent, ReplayInit } from '../../../common/api-types.js';

// The replay page's "Create issue" menu in jsdom: the trackers it opens (window.open is the way
// out of the app, watched here), the trackers' form the first time, and the clipboard's absence.
// Its keyboard, axe and the real new tab are in tests/e2e/issue-links.test.ts.

const T0 = 1_700_000_000_000;
const events: ReplayEvent[] = [
  { type: 4, timestamp: T0, data: { href: 'https://shop.example/cart', width: 1280, height: 720 } },
  { type: 2, timestamp: T0 + 5, data: { node: { type: 0, childNodes: [] }, initialOffset: { left: 0, top: 0 } } },
  { type: 5, timestamp: T0 + 2000, data: { tag: CAPTURED_TAGS.error, payload: { message: 'cart is null', source: 'a.js:1', stack: '' } } },
];
const init = { userAgent: null, errorCount: 1 } as ReplayInit;

function renderMenu() {
  // No server here: the role stays unknown and every choice shows, as before the role is known.
  vi.stubGlobal('fetch', async () => new Response('{}', { status: 503 }));
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <IssueMenu campaignId="c1" sessionId="s1" init={init} events={events} momentRef={{ current: 3400 }} />
    </QueryClientProvider>,
  );
}

const choose = (name: string) => {
  fireEvent.click(screen.getByRole('button', { name: 'Create issue' }));
  fireEvent.click(screen.getByRole('menuitem', { name }));
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('the Create issue menu', () => {
  it('opens Linear at once, and asks for the GitHub repository before GitHub', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderMenu();
    choose('Linear');
    expect(open).toHaveBeenCalledTimes(1);
    const [url, target, features] = open.mock.calls[0];
    expect([target, features]).toEqual(['_blank', 'noopener']);
    const linear = new URL(String(url));
    expect(`${linear.origin}${linear.pathname}`).toBe('https://linear.new/');
    expect(linear.searchParams.get('title')).toBe('Anonymous on /cart: 1 error');
    expect(linear.searchParams.get('description')).toContain(`](${window.location.origin}/?t=3)`);

    choose('GitHub (set up)');
    expect(open).toHaveBeenCalledTimes(1);
    const field = screen.getByLabelText('GitHub repository (owner/repo)');
    await waitFor(() => expect(document.activeElement).toBe(field));
    fireEvent.change(field, { target: { value: 'acme/shop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save trackers' }));
    expect(screen.getByRole('status').textContent).toBe('Issue trackers saved');
    choose('GitHub');
    expect(String(open.mock.calls[1][0])).toMatch(/^https:\/\/github\.com\/acme\/shop\/issues\/new\?title=Anonymous%20on%20%2Fcart%3A%201%20error&body=/);
  });

  it('shows the Markdown to copy by hand where the clipboard is not available', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined, onLine: true });
    renderMenu();
    choose('Copy as Markdown');
    await screen.findByText('The clipboard is not available here: copy the text below.');
    const text = (screen.getByRole('textbox', { name: 'Issue in Markdown' }) as HTMLTextAreaElement).value;
    expect(text.split('\n')[0]).toBe(`**Replay:** [watch from 00:03](${window.location.origin}/?t=3)`);
    expect(text).toContain('1. 00:02 `cart is null`');
  });

  it('copies the Markdown and says so', async () => {
    const writeText = vi.fn(async (_text: string) => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText }, onLine: true });
    renderMenu();
    choose('Copy as Markdown');
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Copied'));
    expect(writeText.mock.calls[0][0]).toContain('1. 00:02 `cart is null`');
    expect(screen.queryByRole('textbox', { name: 'Issue in Markdown' })).toBeNull();
  });
});
