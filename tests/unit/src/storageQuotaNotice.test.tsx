import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { STORAGE_QUOTA_TITLE, StorageQuotaNotice } from '../../../src/components/StorageQuotaNotice.js';

const MB = 1024 * 1024;

afterEach(cleanup);

describe('storage quota notice on the sessions page', () => {
  it('tells the owner the quota is reached, how much is used, and that new sessions are not recorded', () => {
    render(<StorageQuotaNotice storage={{ usedBytes: 10_300 * MB, quotaBytes: 10_240 * MB, full: true }} />);
    const notice = screen.getByRole('alert');
    expect(notice.textContent).toContain(STORAGE_QUOTA_TITLE);
    expect(notice.textContent).toContain("This campaign's recordings use 10 GB of its 10 GB storage quota, so new sessions are not recorded.");
    expect(notice.textContent).toContain('Delete sessions or keep recordings for fewer days to make room.');
  });

  it('says nothing under the quota, or when the server has none', () => {
    const { container } = render(
      <>
        <StorageQuotaNotice storage={{ usedBytes: MB, quotaBytes: 2 * MB, full: false }} />
        <StorageQuotaNotice storage={undefined} />
      </>,
    );
    expect(container.textContent).toBe('');
  });
});
