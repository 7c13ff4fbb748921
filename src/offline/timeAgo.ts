/** "just now", "5 minutes ago", "2 hours ago", "3 days ago". */
export function timeAgo(then: number, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 45) return 'just now';
  const units: [number, string][] = [
    [60 * 60 * 24, 'day'],
    [60 * 60, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    const count = Math.round(seconds / size);
    if (count >= 1 && seconds >= size * 0.75) return `${count} ${name}${count === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}
