/** 'Live': the page follows the server's live stream. */
export function LiveBadge({ title }: { title: string }) {
  return (
    <span className="badge badge-live" title={title} data-testid="live-badge">
      <span className="live-dot" aria-hidden="true" /> Live
    </span>
  );
}
