import { useState } from 'react';
import type { Session } from '../../common/api-types.js';
import { formatDateTime, formatDurationMs } from '../lib/format.js';
import { timeAgo } from '../offline/timeAgo.js';
import { DeviceIcon } from './DeviceIcon.js';
import { sessionProblems } from '../lib/sessionTitle.js';

// What a session card adds to the spec's facts: when, how long, what with, and what went wrong —
// the derived facts the server keeps on each session.

/** When the session started, how long ago (measured from when it first showed: a render must not read the clock), the absolute time as its tooltip. */
export function StartedAgo({ session, now }: { session: Pick<Session, 'startedAt'>; now?: number }) {
  const [shownAt] = useState(() => Date.now());
  return (
    <time dateTime={new Date(session.startedAt).toISOString()} title={formatDateTime(session.startedAt)}>
      {timeAgo(session.startedAt, now ?? shownAt)}
    </time>
  );
}

/** "1m 35s (1m 1s active)". */
export function DurationText({ session }: { session: Pick<Session, 'durationMs' | 'activeMs'> }) {
  return (
    <>
      {formatDurationMs(session.durationMs ?? 0)}
      {session.activeMs ? <span className="muted"> ({formatDurationMs(session.activeMs)} active)</span> : null}
    </>
  );
}

/** The device's icon, browser and OS, and the kind of device. */
export function SoftwareText({ session }: { session: Pick<Session, 'browser' | 'os' | 'device'> }) {
  const software = [session.browser, session.os].filter(Boolean).join(' · ') || 'Unknown browser';
  return (
    <>
      <DeviceIcon device={session.device} /> {software}
      {session.device ? <span className="muted"> ({session.device})</span> : null}
    </>
  );
}

/** Start time, duration, software and device, and country, in one short block. */
export function SessionSummary({ session, now }: { session: Session; now?: number }) {
  return (
    <dl className="session-summary">
      <div>
        <dt className="visually-hidden">Started</dt>
        <dd>
          <StartedAgo session={session} now={now} />
        </dd>
      </div>
      <div>
        <dt className="visually-hidden">Duration</dt>
        <dd>
          <DurationText session={session} />
        </dd>
      </div>
      <div>
        <dt className="visually-hidden">Browser</dt>
        <dd>
          <SoftwareText session={session} />
        </dd>
      </div>
      <div>
        <dt className="visually-hidden">Country</dt>
        <dd>
          <CountryName session={session} />
        </dd>
      </div>
    </dl>
  );
}

/** The country's name, its code as the tooltip (a flag emoji shows as a box where no emoji font exists). */
export function CountryName({ session }: { session: Pick<Session, 'country' | 'countryCode'> }) {
  return <span title={session.countryCode ?? undefined}>{session.country || 'Unknown'}</span>;
}

/** Badges for errors, failed requests and frustration signals: only those the session has. */
export function ProblemBadges({ session }: { session: Parameters<typeof sessionProblems>[0] }) {
  const shown = sessionProblems(session);
  if (!shown.length) return null;
  return (
    <ul className="problem-badges" aria-label="Problems">
      {shown.map(({ text, kind }) => (
        <li key={text} className={`badge ${kind}`}>
          {text}
        </li>
      ))}
    </ul>
  );
}
