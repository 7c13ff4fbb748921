import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Modal } from '../../../src/components/Modal.js';
import { ScriptActions } from '../../../src/components/ScriptActions.js';
import { DeleteCampaignModal } from '../../../src/components/SessionModals.js';

afterEach(cleanup);

describe('Modal', () => {
  it('takes focus, traps Tab inside, and closes on Escape', () => {
    const onClose = vi.fn();
    render(
      <>
        <button>outside</button>
        <Modal title="Session Details" onClose={onClose} footer={<button>Done</button>}>
          <p>body</p>
        </Modal>
      </>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Session Details' });
    const close = screen.getByRole('button', { name: 'Close' });
    const done = screen.getByRole('button', { name: 'Done' });
    expect(document.activeElement).toBe(close);
    done.focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(done);
    expect(dialog.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
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
    fireEvent.keyDown(document, { key: 'Escape' });
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
    expect(writeText.mock.calls[0][0]).toContain('"c42"');
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

  it('reports the spec errors: not loaded yet, clipboard refused', async () => {
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
