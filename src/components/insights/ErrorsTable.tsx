import type { Insights } from '../../../common/api/insights.js';
import type { SessionFilters } from '../../lib/sessionFilters.js';
import { formatDateTime } from '../../lib/format.js';
import { SessionsLink } from './SessionsLink.js';
import { InsightsTable } from './InsightsTable.js';

/** JavaScript errors by message: occurrences, sessions (linked to them), first and last seen. */
export function ErrorsTable({ campaignId, errors, range }: { campaignId: string; errors: Insights['errors']; range: SessionFilters }) {
  return (
    <section className="card insights-top" aria-label="JavaScript errors">
      <h2 className="insights-heading">JavaScript errors</h2>
      {errors.length === 0 ? (
        <p className="muted small">No errors</p>
      ) : (
        <InsightsTable columns={['Message', 'Count', 'Sessions', 'First seen', 'Last seen']}>
          {errors.map((row) => (
            <tr key={row.message}>
              <th scope="row" className="insights-error-message">
                {row.message}
              </th>
              <td>{row.count}</td>
              <td>
                <SessionsLink
                  campaignId={campaignId}
                  filters={{ ...range, error: row.message }}
                  label={`${row.sessions} sessions with the error ${row.message}`}
                >
                  {row.sessions}
                </SessionsLink>
              </td>
              <td>{formatDateTime(row.firstSeen)}</td>
              <td>{formatDateTime(row.lastSeen)}</td>
            </tr>
          ))}
        </InsightsTable>
      )}
    </section>
  );
}
