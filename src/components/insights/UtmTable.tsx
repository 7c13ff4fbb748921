import type { Insights } from '../../../common/api/insights.js';
import type { SessionFilters } from '../../lib/sessionFilters.js';
import { SessionsLink } from './SessionsLink.js';
import { InsightsTable } from './InsightsTable.js';

/** The list's filters of a row: its source, medium and campaign, each exact or, when not given ("—"), unknown. */
export function utmFilters(row: Insights['utm'][number]): SessionFilters {
  const filters: SessionFilters = {};
  const unknown: string[] = [];
  if (row.source === null) unknown.push('utmSource');
  else filters.utmSource = row.source;
  if (row.medium === null) unknown.push('utmMedium');
  else filters.utmMedium = row.medium;
  if (row.campaign === null) unknown.push('utm');
  else filters.utm = row.campaign;
  return unknown.length ? { ...filters, unknown: unknown.join(',') } : filters;
}

/** Sessions by their entry page's UTM source, medium and campaign, each row's sessions linked to the list filtered to them. */
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
                <SessionsLink
                  campaignId={campaignId}
                  filters={{ ...range, ...utmFilters(row) }}
                  label={`${row.sessions} sessions: UTM ${[row.source ?? '—', row.medium ?? '—', row.campaign ?? '—'].join(' / ')}`}
                >
                  {row.sessions}
                </SessionsLink>
              </td>
            </tr>
          ))}
        </InsightsTable>
      )}
    </section>
  );
}
