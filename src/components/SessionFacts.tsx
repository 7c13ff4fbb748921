import { useState } from 'react';
import type { Session } from '../../common/api-types.js';
import { formatDateTime, formatDurationMs } from '../lib/format.js';
import { timeAgo } from '../offline/timeAgo.js';
import { countryFlag } from '../lib/sessionFilters.js';

// What a session card adds to the spec's facts: when, how long, where, what with, and what went
// wrong — the derived facts the server keeps on each session.

const DEVICE_ICONS: Record<string, string> = { desktop: '🖥️', mobile: '📱', tablet: '📲', tv: '📺' };

export function deviceIcon(device: string | null | undefined): string {
  return (device && DEVICE_ICONS[device]) || '💻';
}

/** Start time (relative, with the absolute time beside it), duration, pages, software, country, entry page. */
export function SessionSummary({ session, now }: { session: Session; now?: number }) {
  // "How long ago" is measured from when the card first showed (a render must not read the clock).
  const [shownAt] = useState(() => Date.now());
  const at = now ?? shownAt;
  const flag = countryFlag(session.countryCode);
  const software = [session.browser, session.os].filter(Boolean).join(' · ') || 'Unknown browser';
  return (
    <dl className="session-summary">
      <div>
        <dt>Started</dt>
        <dd>
          <time dateTime={new Date(session.startedAt).toISOString()} title={formatDateTime(session.startedAt)}>
            {timeAgo(session.startedAt, at)}
          </time>{' '}
          <span className="muted small">({formatDateTime(session.startedAt)})</span>
        </dd>
      </div>
      <div>
        <dt>Duration</dt>
        <dd>
          {formatDurationMs(session.durationMs ?? 0)}
          {session.activeMs ? <span className="muted small"> ({formatDurationMs(session.activeMs)} active)</span> : null}
        </dd>
      </div>
      <div>
        <dt>Pages</dt>
        <dd>{session.pageCount}</dd>
      </div>
      <div>
        <dt>Browser</dt>
        <dd>
          <span aria-hidden="true">{deviceIcon(session.device)} </span>
          {software}
          {session.device ? <span className="muted small"> ({session.device})</span> : null}
        </dd>
      </div>
      <div>
        <dt>Location</dt>
        <dd>
          {flag && (
            <span role="img" aria-label={session.countryCode ?? undefined}>
              {flag}{' '}
            </span>
          )}
          {session.country || 'Unknown'}
        </dd>
      </div>
      {session.entryUrl && (
        <div className="session-summary-wide">
          <dt>Entry page</dt>
          <dd className="mono small break">{session.entryUrl}</dd>
        </div>
      )}
    </dl>
  );
}

/** Badges for errors, rage clicks and dead clicks: only those the session has. */
export function ProblemBadges({ session }: { session: Partial<Pick<Session, 'errorCount' | 'rageClickCount' | 'deadClickCount' | 'failedRequestCount'>> }) {
  const badges = [
    [session.errorCount, 'error', 'errors', 'badge-error'],
    [session.failedRequestCount, 'failed request', 'failed requests', 'badge-error'],
    [session.rageClickCount, 'rage click', 'rage clicks', 'badge-rage'],
    [session.deadClickCount, 'dead click', 'dead clicks', 'badge-dead'],
  ] as const;
  const shown = badges.filter(([count]) => (count ?? 0) > 0);
  if (!shown.length) return null;
  return (
    <ul className="problem-badges" aria-label="Problems">
      {shown.map(([count, one, many, kind]) => (
        <li key={one} className={`badge ${kind}`}>
          {count} {count === 1 ? one : many}
        </li>
      ))}
    </ul>
  );
}
