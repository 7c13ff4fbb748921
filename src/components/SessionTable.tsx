import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { replayPageLink } from '../lib/replayUrls.js';
import { sessionWhere } from '../lib/sessionTitle.js';
import { CountryName, DurationText, ProblemBadges, SoftwareText, StartedAgo } from './SessionFacts.js';
import { RecordingNowBadge, SessionButtons, SessionTitle, SessionTypeBadge, type SessionCardProps } from './SessionCard.js';

// The sessions list view: a table with a header for each column, where every value wraps in its
// cell rather than being cut. On a phone each row stacks into a block (the roles are written out,
// so it stays a table to assistive technology whatever its display).

const COLUMNS = ['Session', 'Pages', 'Started', 'Duration', 'Device', 'Country', 'Actions'] as const;

export function SessionTable({ children }: { children: ReactNode }) {
  return (
    <table className="session-table" role="table" aria-label="Sessions">
      <thead role="rowgroup">
        <tr role="row">
          {COLUMNS.map((column) => (
            <th key={column} role="columnheader" scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup">{children}</tbody>
    </table>
  );
}

/** One session of the list view: who (and what went wrong), where, when, how long, what with, from where, and the ways in. */
export function SessionRow({ campaignId, session, onDetails, onDelete, actions, list }: SessionCardProps) {
  return (
    <tr className="session-row" data-testid="session-row" role="row">
      <Cell column="Session">
        <SessionTitle session={session} as="span" />
        <span className="session-row-badges">
          <SessionTypeBadge session={session} />
          <RecordingNowBadge session={session} />
          <ProblemBadges session={session} />
        </span>
      </Cell>
      <Cell column="Pages" className="session-where">
        {sessionWhere(session)}
      </Cell>
      <Cell column="Started">
        <StartedAgo session={session} />
      </Cell>
      <Cell column="Duration">
        <DurationText session={session} />
      </Cell>
      <Cell column="Device">
        <SoftwareText session={session} />
      </Cell>
      <Cell column="Country">
        <CountryName session={session} />
      </Cell>
      <Cell column="Actions">
        <div className="row-actions">
          <Link {...replayPageLink(campaignId, session.sessionId, list)} className="button button-primary button-small">
            Watch Replay
          </Link>
          <SessionButtons campaignId={campaignId} session={session} onDetails={onDetails} onDelete={onDelete} actions={actions} />
        </div>
      </Cell>
    </tr>
  );
}

/** A cell, its column's name kept for the phone's stacked rows (shown there by CSS, before the value). */
function Cell({ column, className, children }: { column: (typeof COLUMNS)[number]; className?: string; children: ReactNode }) {
  return (
    <td role="cell" data-column={column} className={className}>
      {children}
    </td>
  );
}
