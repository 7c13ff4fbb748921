import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { SegmentPicker } from '../../../src/components/SegmentPicker.js';
import { StarButton } from '../../../src/components/StarButton.js';
import { NotesPanel } from '../../../src/components/replay/Notes.js';
import { activityLabel, noteItems } from '../../../src/components/replay/activity.js';

// Keep and annotate, in jsdom with a real query client; only the network is scripted.
type Answer = (url: string, init: RequestInit) => Response;

function withNetwork(answer: Answer, ui: ReactNode) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: String(input), method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : undefined });
    return answer(String(input), init);
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>);
  return calls;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const segment = { id: 'seg-1', name: 'Mobile errors', filters: { device: 'mobile', hasErrors: 'true', minDuration: 5000 }, createdAt: 1, updatedAt: 1 };

describe('the segment picker', () => {
  it("applies a segment's filters, shows it as current when they are the list's, and saves the current filters under a name", async () => {
    const onFilters = vi.fn();
    const calls = withNetwork(
      (_url, init) =>
        init.method === 'POST' ? Response.json({ ...segment, id: 'seg-2', name: 'Starred' }, { status: 201 }) : Response.json({ segments: [segment] }),
      <SegmentPicker campaignId="c1" filters={{ starred: true, sort: 'longest' }} onFilters={onFilters} />,
    );
    const select = (await screen.findByRole('option', { name: 'Mobile errors' })).closest('select') as HTMLSelectElement;
    expect(select.value).toBe('');
    fireEvent.change(select, { target: { value: 'seg-1' } });
    expect(onFilters).toHaveBeenCalledWith({ device: 'mobile', hasErrors: true, minDuration: 5000 });

    fireEvent.click(screen.getByRole('button', { name: 'Save filters as…' }));
    fireEvent.change(screen.getByLabelText('Segment name'), { target: { value: 'Starred, longest' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')).toEqual({
      url: '/api/v1/segments/c1',
      method: 'POST',
      body: { name: 'Starred, longest', filters: { starred: 'true', sort: 'longest' } },
    });
  });

  it('marks the segment matching the current filters, and renames or deletes it', async () => {
    const calls = withNetwork(
      (_url, init) =>
        init.method === 'DELETE' ? Response.json({ ok: true }) : init.method === 'PATCH' ? Response.json(segment) : Response.json({ segments: [segment] }),
      <SegmentPicker campaignId="c1" filters={{ hasErrors: true, device: 'mobile', minDuration: 5000 }} onFilters={() => undefined} />,
    );
    await waitFor(() => expect((screen.getByLabelText('Segment') as HTMLSelectElement).value).toBe('seg-1'));
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    fireEvent.change(screen.getByLabelText('New name'), { target: { value: 'Phones with errors' } });
    fireEvent.submit(screen.getByLabelText('New name').closest('form') as HTMLFormElement);
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({ url: '/api/v1/segments/c1/seg-1', body: { name: 'Phones with errors' } }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete segment' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/api/v1/segments/c1/seg-1'));
  });

  it("shows the server's reason when a save is refused", async () => {
    withNetwork(
      (_url, init) =>
        init.method === 'POST'
          ? Response.json({ error: 'A campaign keeps at most 50 segments: delete one first' }, { status: 409 })
          : Response.json({ segments: [] }),
      <SegmentPicker campaignId="c1" filters={{}} onFilters={() => undefined} />,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Save filters as…' }));
    fireEvent.change(screen.getByLabelText('Segment name'), { target: { value: 'One too many' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('A campaign keeps at most 50 segments: delete one first');
  });
});

describe('the star button', () => {
  it('stars with PUT and unstars with DELETE, showing the state as pressed', async () => {
    const calls = withNetwork((_url, init) => Response.json({ starred: init.method === 'PUT' }), <StarButton campaignId="c1" sessionId="s1" starred={false} />);
    const button = screen.getByRole('button', { name: /Star/ });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(button);
    await waitFor(() => expect(calls).toEqual([{ url: '/api/v1/streaming/sessions/c1/s1/star', method: 'PUT', body: undefined }]));
    cleanup();
    const unstar = withNetwork(() => Response.json({ starred: false }), <StarButton campaignId="c1" sessionId="s1" starred />);
    const pressed = screen.getByRole('button', { name: /Starred/ });
    expect(pressed.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(pressed);
    await waitFor(() => expect(unstar.map((c) => c.method)).toEqual(['DELETE']));
  });
});

describe('notes on the replay page', () => {
  const events = [
    { type: 4, data: { href: 'https://example.com/', width: 1, height: 1 }, timestamp: 10_000 },
    { type: 3, data: {}, timestamp: 40_000 },
  ];

  it('become activity items at their moment on the player clock, among the others in time order', () => {
    const items = noteItems([{ text: 'Pays here', timestamp: 22_000 }], events);
    expect(items).toEqual([{ kind: 'note', at: 12_000, note: 'Pays here' }]);
    expect(activityLabel(items[0])).toBe('Note: Pays here at 00:12');
  });

  it("adds a note at the player's current moment, as epoch ms of the recording", async () => {
    const calls = withNetwork(
      (_url, init) => (init.method === 'POST' ? Response.json({ id: 'n1' }, { status: 201 }) : Response.json({ notes: [] })),
      <NotesPanel campaignId="c1" sessionId="s1" notes={[]} events={events} currentTime={7_000} onSeek={() => undefined} />,
    );
    expect(screen.queryByLabelText('Note at 00:07')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));
    fireEvent.change(screen.getByLabelText('Note at 00:07'), { target: { value: ' Stuck on the form ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save note' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')).toEqual({
        url: '/api/v1/notes/c1/s1',
        method: 'POST',
        body: { text: 'Stuck on the form', timestamp: 17_000 },
      }),
    );
  });
});
