/** 'Live': the page follows the server's live stream. */
export function LiveBadge({ title, testId = 'live-badge' }: { title: string; testId?: string }) {
  return (
    <span className="badge badge-live" title={title} data-testid={testId}>
      <span className="live-dot" aria-hidden="true" /> Live
    </span>
  );
}
