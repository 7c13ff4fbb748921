import type { Insights } from '../../../common/api/insights.js';
import type { SessionFilters } from '../../lib/sessionFilters.js';
import { SessionsLink } from './SessionsLink.js';
import { InsightsTable } from './InsightsTable.js';

/** Sessions by their entry page's UTM source, medium and campaign; a campaign's sessions link to the list filtered by `utm`. */
export function UtmTable({ campaignId, rows, range }: { campaignId: string; rows: Insights['utm']; range: SessionFilters }) {
  return (
    <section className="card insights-top" aria-label="UTM campaigns">
      <h2 className="insights-heading">UTM campaigns</h2>
      {rows.length === 0 ? (
        <p className="muted small">No UTM campaigns</p>
      ) : (
        <InsightsTable className="insights-utm" columns={['Source', 'Medium', 'Campaign', 'Sessions']}>
          {rows.map((row) => (
            <tr key={JSON.stringify([row.source, row.medium, row.campaign])}>
              <th scope="row">{row.source ?? '—'}</th>
              <td>{row.medium ?? '—'}</td>
              <td>{row.campaign ?? '—'}</td>
              <td>
                {row.campaign === null ? (
                  row.sessions
                ) : (
                  <SessionsLink
                    campaignId={campaignId}
                    filters={{ ...range, utm: row.campaign }}
                    label={`${row.sessions} sessions: UTM campaign ${row.campaign}`}
                  >
                    {row.sessions}
                  </SessionsLink>
                )}
              </td>
            </tr>
          ))}
        </InsightsTable>
      )}
    </section>
  );
}
