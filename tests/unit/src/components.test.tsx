import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Modal } from '../../../src/components/Modal.js';
import { InstallBlock, InstallTag, ScriptActions } from '../../../src/components/ScriptActions.js';
import { DeleteCampaignModal } from '../../../src/components/SessionModals.js';

afterEach(cleanup);

describe('Modal', () => {
  it('opens as a native modal dialog, takes focus, closes on Escape and gives focus back', () => {
    const onClose = vi.fn();
    const Page = ({ open }: { open: boolean }) => (
      <>
        <button>outside</button>
        {open && (
          <Modal title="Session Details" onClose={onClose} footer={<button>Done</button>}>
            <p>body</p>
          </Modal>
        )}
      </>
    );
    const { rerender } = render(<Page open={false} />);
    const outside = screen.getByRole('button', { name: 'outside' });
    outside.focus();
    rerender(<Page open />);
    const dialog = screen.getByRole('dialog', { name: 'Session Details' }) as HTMLDialogElement;
    expect(dialog.tagName).toBe('DIALOG');
    expect(dialog.open).toBe(true);
    expect(dialog.dataset.modal).toBe('true');
    const close = screen.getByRole('button', { name: 'Close' });
    expect(document.activeElement).toBe(close);
    // Tab wraps at the dialog's ends instead of leaving it.
    screen.getByRole('button', { name: 'Done' }).focus();
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Done' }));
    // Escape is the dialog's cancel event; the modal leaves closing to its owner.
    const cancel = new Event('cancel', { cancelable: true });
    fireEvent(dialog, cancel);
    expect(cancel.defaultPrevented).toBe(true);
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(2);
    rerender(<Page open={false} />);
    expect(document.activeElement).toBe(outside);
  });

  it('the delete modal shows its texts and "Deleting..." while working, ignoring Escape', () => {
    const onCancel = vi.fn();
    const { rerender } = render(<DeleteCampaignModal sessionCount={12} deleting={false} onCancel={onCancel} onConfirm={() => {}} />);
    expect(screen.getByRole('dialog', { name: 'Delete Campaign?' })).toBeTruthy();
    expect(screen.getByText('All sessions (12)')).toBeTruthy();
    expect(screen.getByText('All recordings and data')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete Campaign' })).toBeTruthy();
    rerender(<DeleteCampaignModal sessionCount={12} deleting onCancel={onCancel} onConfirm={() => {}} />);
    expect(screen.getByRole('button', { name: 'Deleting...' })).toHaveProperty('disabled', true);
    fireEvent(screen.getByRole('dialog', { name: 'Delete Campaign?' }), new Event('cancel', { cancelable: true }));
    expect(onCancel).not.toHaveBeenCalled();
  });
});

describe('Copy Script', () => {
  const loader = fs.readFileSync(path.resolve(process.cwd(), 'tracker/loader.js'), 'utf8');

  it("shows 'Copied!' for 2.5 seconds after copying the filled script", async () => {
    const writeText = vi.fn(async (_text: string) => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    render(<ScriptActions campaignId="c42" source={loader} onError={() => {}} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy Script' }));
    });
    // Let the (lazy) minifier finish without moving the faked clock.
    for (let i = 0; i < 200 && !screen.queryByRole('button', { name: 'Copied!' }); i++) {
      await act(() => new Promise<void>((resolve) => setImmediate(resolve)));
    }
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeTruthy();
    // Wrapped in a <script> element, so it works when pasted into a page's HTML.
    expect(writeText.mock.calls[0][0]).toMatch(/^<script>\n[^]*"c42"[^]*\n<\/script>$/);
    await act(async () => {
      vi.advanceTimersByTime(2499);
    });
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeTruthy();
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByRole('button', { name: 'Copy Script' })).toBeTruthy();
    vi.useRealTimers();
  });

  it('reports its errors: not loaded yet, clipboard refused', async () => {
    const onError = vi.fn();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) }, configurable: true });
    const { rerender } = render(<ScriptActions campaignId="c1" source={undefined} onError={onError} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy Script' }));
    });
    await vi.waitFor(() => expect(onError).toHaveBeenLastCalledWith('Script content is not loaded yet. Please try again in a moment.'));
    rerender(<ScriptActions campaignId="c1" source={loader} onError={onError} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy Script' }));
    });
    await vi.waitFor(() => expect(onError).toHaveBeenLastCalledWith('Failed to copy script. Please try downloading it instead.'));
  });
});

describe('the dashboard row’s install block', () => {
  const tag = (id: string) => `<script async src="${window.location.origin}/t/${id}.js"></script>`;

  it('is open while the campaign has received no data', () => {
    const { container } = render(<InstallBlock campaignId="c1" installed={false} onError={() => {}} />);
    expect(screen.getByText(tag('c1'))).toBeTruthy();
    expect(container.querySelector('details')).toBeNull();
  });

  it('folds away once data has arrived, and opens on demand', () => {
    const { container } = render(<InstallBlock campaignId="c2" installed onError={() => {}} />);
    const fold = container.querySelector('details')!;
    expect(fold.open).toBe(false);
    fireEvent.click(screen.getByText('Show install tag'));
    expect(fold.open).toBe(true);
    expect(screen.getByRole('button', { name: 'Copy tag' })).toBeTruthy();
  });
});

describe('Copy tag', () => {
  it("copies the one-line tag and shows 'Copied!' for 2.5 seconds", async () => {
    const writeText = vi.fn(async (_text: string) => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    render(<InstallTag campaignId="c42" onError={() => {}} />);
    expect(screen.getByText(`<script async src="${window.location.origin}/t/c42.js"></script>`)).toBeTruthy();
    expect(screen.getByText('Recommended:')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy tag' }));
    });
    expect(writeText).toHaveBeenCalledWith(`<script async src="${window.location.origin}/t/c42.js"></script>`);
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeTruthy();
    await act(async () => {
      vi.advanceTimersByTime(2500);
    });
    expect(screen.getByRole('button', { name: 'Copy tag' })).toBeTruthy();
    vi.useRealTimers();
  });

  it('reports a refused clipboard', async () => {
    const onError = vi.fn();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) }, configurable: true });
    render(<InstallTag campaignId="c1" onError={onError} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy tag' }));
    });
    expect(onError).toHaveBeenLastCalledWith('Failed to copy script. Please try downloading it instead.');
  });
});
