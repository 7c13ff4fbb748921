import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { sessionTypeLabel } from '../api/sessions.js';
import type { Session } from '../../common/api-types.js';
import { shortId, storedIpLabel } from '../lib/format.js';
import { replayPageLink } from '../lib/replayUrls.js';
import type { SessionListContext } from '../lib/sessionListContext.js';
import { ProblemBadges, SessionSummary } from './SessionFacts.js';
import { LiveBadge } from './LiveBadge.js';
import { useRecordingNow } from '../lib/useRecordingNow.js';
import { sessionWhat, sessionWhere, sessionWho } from '../lib/sessionTitle.js';
import { StarButton } from './StarButton.js';

export const countryLabel = (session: Pick<Session, 'country'>) => session.country || 'Unknown';

/** The server's verdict; its reason (webdriver, crawler user agent, no human input) as the tooltip. */
export function SessionTypeBadge({ session }: { session: Pick<Session, 'isBot' | 'botReason'> }) {
  return (
    <span className={`badge ${session.isBot ? 'badge-bot' : 'badge-human'}`} title={(session.isBot && session.botReason) || undefined}>
      {sessionTypeLabel(session.isBot)}
    </span>
  );
}

export function SessionChips({ session }: { session: Pick<Session, 'cookiesEnabled' | 'hasFocus' | 'fullScreenEnabled'> }) {
  return (
    <ul className="chips" aria-label="Browser state">
      <li className={`chip ${session.cookiesEnabled ? 'chip-on' : 'chip-off'}`}>{session.cookiesEnabled ? 'Cookies enabled' : 'Cookies disabled'}</li>
      <li className={`chip ${session.hasFocus ? 'chip-on' : 'chip-off'}`}>{session.hasFocus ? 'Focus active' : 'No focus'}</li>
      <li className="chip">{session.fullScreenEnabled ? 'Fullscreen' : 'Windowed'}</li>
    </ul>
  );
}

export interface SessionCardProps {
  campaignId: string;
  session: Session;
  onDetails: (session: Session) => void;
  /** Asks to delete the session (the page confirms first); no button without it. */
  onDelete?: (session: Session) => void;
  /** Extra buttons (e.g. 'Save for offline'). */
  actions?: ReactNode;
  /** The list it is shown in: its replay's Previous/Next session follow it. */
  list?: SessionListContext;
}

/** 'Live' on a session whose batches are arriving now (common/recording-now.ts); the page's own badge says its list is followed. */
export function RecordingNowBadge({ session }: { session: Pick<Session, 'lastActivityAt' | 'closed'> }) {
  return useRecordingNow(session) ? <LiveBadge title="Recording now: this visit's batches are arriving" testId="session-live" /> : null;
}

/** Who (the user id, or Anonymous) with the short id that tells one anonymous visit from another. */
export function SessionTitle({ session, as: Heading }: { session: Session; as: 'h2' | 'span' }) {
  return (
    <Heading className="session-who" data-testid="session-who">
      <span className="ellipsis" title={session.userId ?? undefined} data-testid={session.userId ? 'session-user' : undefined}>
        {sessionWho(session)}
      </span>{' '}
      <span className="session-short-id" title={session.sessionId}>
        {shortId(session.sessionId)}
      </span>
    </Heading>
  );
}

/** Where the visit went and what it did, one line each. */
function SessionStory({ session }: { session: Session }) {
  return (
    <>
      <p className="session-where ellipsis" title={sessionWhere(session)}>
        {sessionWhere(session)}
      </p>
      <p className="session-what small muted">{sessionWhat(session)}</p>
    </>
  );
}

/** The spec's facts about the browser (ids, IP, language, hardware, timezone, chips), folded away. */
function BrowserDetails({ session }: { session: Session }) {
  return (
    <details className="session-browser">
      <summary>Browser details</summary>
      <p className="mono small muted ellipsis" title={session.sessionId}>
        {session.sessionId}
      </p>
      <dl className="session-facts">
        <div>
          <dt>IP Address</dt>
          <dd>{storedIpLabel(session)}</dd>
        </div>
        <div>
          <dt>Language</dt>
          <dd>{session.language ?? 'Unknown'}</dd>
        </div>
        <div>
          <dt>Hardware</dt>
          <dd>{session.hardwareConcurrency ?? '?'} cores</dd>
        </div>
        <div>
          <dt>Timezone</dt>
          <dd>{session.timezone ?? 'Unknown'}</dd>
        </div>
      </dl>
      <SessionChips session={session} />
    </details>
  );
}

/** A card titled by who, where and what; when, how long, device and country below; the browser's details folded. */
export function SessionCard({ campaignId, session, onDetails, onDelete, actions, list }: SessionCardProps) {
  return (
    <li className="card session-card" data-testid="session-card">
      <div className="session-card-head">
        <div className="session-ids">
          <SessionTitle session={session} as="h2" />
          <SessionTypeBadge session={session} />
          <RecordingNowBadge session={session} />
        </div>
        <Link {...replayPageLink(campaignId, session.sessionId, list)} className="button button-primary button-small">
          Watch Replay
        </Link>
      </div>
      <SessionStory session={session} />
      <SessionSummary session={session} />
      <ProblemBadges session={session} />
      <BrowserDetails session={session} />
      <div className="row-actions">
        <SessionButtons campaignId={campaignId} session={session} onDetails={onDetails} onDelete={onDelete} actions={actions} />
      </div>
    </li>
  );
}

export function SessionButtons({ campaignId, session, onDetails, onDelete, actions }: SessionCardProps) {
  return (
    <>
      <StarButton campaignId={campaignId} sessionId={session.sessionId} starred={session.starred === true} />
      <button type="button" className="button button-secondary button-small" onClick={() => onDetails(session)}>
        View Details
      </button>
      {actions}
      {onDelete && (
        <button type="button" className="button button-danger button-small" onClick={() => onDelete(session)}>
          Delete
        </button>
      )}
    </>
  );
}
