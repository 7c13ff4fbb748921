import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { isBotSession } from '../api/sessions.js';
import type { Session } from '../api/types.js';
import { shortId } from '../lib/format.js';

export const countryLabel = (session: Pick<Session, 'country'>) => session.country || 'Unknown';

export function SessionTypeBadge({ session }: { session: Session }) {
  const bot = isBotSession(session);
  return <span className={`badge ${bot ? 'badge-bot' : 'badge-human'}`}>{bot ? 'Bot Traffic' : 'Human User'}</span>;
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

interface SessionCardProps {
  campaignId: string;
  session: Session;
  onDetails: (session: Session) => void;
  /** Extra buttons (e.g. 'Save for offline'). */
  actions?: ReactNode;
}

export function SessionCard({ campaignId, session, onDetails, actions }: SessionCardProps) {
  return (
    <li className="card session-card" data-testid="session-card">
      <div className="session-card-head">
        <div className="session-ids">
          <h2 className="session-short-id">{shortId(session.sessionId)}</h2>
          <p className="mono small muted break">{session.sessionId}</p>
        </div>
        <SessionTypeBadge session={session} />
      </div>
      <dl className="session-facts">
        <div>
          <dt>IP Address</dt>
          <dd>{session.remoteIpAddress ?? 'Unknown'}</dd>
        </div>
        <div>
          <dt>Country</dt>
          <dd>{countryLabel(session)}</dd>
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
      <div className="row-actions">
        <button type="button" className="button button-secondary button-small" onClick={() => onDetails(session)}>
          View Details
        </button>
        <Link
          to="/campaign/$campaignId/session/$sessionId"
          params={{ campaignId, sessionId: session.sessionId }}
          className="button button-primary button-small"
        >
          Watch Replay
        </Link>
        {actions}
      </div>
    </li>
  );
}
