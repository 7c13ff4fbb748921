import type { ReactNode } from 'react';
import type { SessionFilters } from '../../lib/sessionFilters.js';
import { SessionsLink, type SessionsSearch } from './SessionsLink.js';
import { InsightsTable } from './InsightsTable.js';

export interface TopRow {
  key: string;
  label: ReactNode;
  /** The plain name, for the link's label. */
  name: string;
  sessions: number;
  /** The sessions list's filter for this row, where one exists (none for sessions without the value). */
  filters?: SessionsSearch;
}

/** One of the dashboard's top lists: a value and its sessions, the count linked to them. */
export function TopTable({
  title,
  column,
  rows,
  campaignId,
  range,
}: {
  title: string;
  column: string;
  rows: TopRow[];
  campaignId: string;
  range: SessionFilters;
}) {
  return (
    <section className="card insights-top" aria-label={title}>
      <h2 className="insights-heading">{title}</h2>
      {rows.length === 0 ? (
        <p className="muted small">No sessions</p>
      ) : (
        <InsightsTable columns={[column, 'Sessions']}>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.label}</th>
              <td>
                {row.filters ? (
                  <SessionsLink campaignId={campaignId} filters={{ ...range, ...row.filters }} label={`${row.sessions} sessions: ${row.name}`}>
                    {row.sessions}
                  </SessionsLink>
                ) : (
                  row.sessions
                )}
              </td>
            </tr>
          ))}
        </InsightsTable>
      )}
    </section>
  );
}
