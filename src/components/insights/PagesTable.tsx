import type { Insights } from '../../../common/api/insights.js';
import type { SessionFilters } from '../../lib/sessionFilters.js';
import { formatDurationMs } from '../../lib/format.js';
import { SessionsLink } from './SessionsLink.js';
import { InsightsTable } from './InsightsTable.js';

type Page = Insights['pages'][number];

/**
 * Top pages by views, with the median time on each. The sessions that viewed a page, entered on
 * it, left from it, and had rage clicks, dead clicks or errors there link to those sessions (views
 * count loads, not sessions: a session may load a page again).
 */
export function PagesTable({ campaignId, insights, range }: { campaignId: string; insights: Insights; range: SessionFilters }) {
  const linked = (page: Page, count: number, what: string, filters: SessionFilters) => (
    <SessionsLink campaignId={campaignId} filters={{ ...range, ...filters }} label={`${count} ${what}: ${page.path}`}>
      {count}
    </SessionsLink>
  );
  return (
    <section className="card insights-pages" aria-label="Top pages">
      <h2 className="insights-heading">Top pages</h2>
      {insights.pagesFromSessions < insights.totals.sessions && (
        <p className="small muted">Counted over the newest {insights.pagesFromSessions.toLocaleString()} sessions of the range.</p>
      )}
      {insights.pages.length === 0 ? (
        <p className="muted small">No pages</p>
      ) : (
        <InsightsTable columns={['Page', 'Views', 'Sessions', 'Entries', 'Exits', 'Median time on page', 'Rage clicks', 'Dead clicks', 'Errors']}>
          {insights.pages.map((page) => (
            <tr key={page.path}>
              <th scope="row" className="mono break">
                {page.path}
              </th>
              <td>{page.views}</td>
              {/* null: a day counted before sessions were (older answers have none either). */}
              <td>{page.sessions == null ? '—' : linked(page, page.sessions, 'sessions that viewed', { page: page.path })}</td>
              <td>{linked(page, page.entries, 'sessions that entered on', { entry: page.path })}</td>
              <td>{linked(page, page.exits, 'sessions that left from', { exit: page.path })}</td>
              {/* null: no visit of it was timed (older answers have no times either). */}
              <td>{page.medianMsOnPage == null ? '—' : formatDurationMs(page.medianMsOnPage)}</td>
              <td>{linked(page, page.rageClicks, 'sessions with rage clicks that viewed', { page: page.path, hasRageClicks: true })}</td>
              <td>{linked(page, page.deadClicks, 'sessions with dead clicks that viewed', { page: page.path, hasDeadClicks: true })}</td>
              <td>{linked(page, page.errors, 'sessions with errors that viewed', { page: page.path, hasErrors: true })}</td>
            </tr>
          ))}
        </InsightsTable>
      )}
    </section>
  );
}
