import type { Insights } from '../../../common/api/insights.js';
import type { SessionFilters } from '../../lib/sessionFilters.js';
import { formatDurationMs } from '../../lib/format.js';
import { SessionsLink } from './SessionsLink.js';
import { InsightsTable } from './InsightsTable.js';

type Page = Insights['pages'][number];

/** Top pages by views, with the median time on each; views, rage clicks, dead clicks and errors link to the sessions that visited the page. */
export function PagesTable({ campaignId, insights, range }: { campaignId: string; insights: Insights; range: SessionFilters }) {
  const linked = (page: Page, count: number, what: string, filters: SessionFilters) =>
    count > 0 ? (
      <SessionsLink campaignId={campaignId} filters={{ ...range, url: page.path, ...filters }} label={`${count} ${what}: ${page.path}`}>
        {count}
      </SessionsLink>
    ) : (
      count
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
        <InsightsTable columns={['Page', 'Views', 'Entries', 'Exits', 'Median time on page', 'Rage clicks', 'Dead clicks', 'Errors']}>
          {insights.pages.map((page) => (
            <tr key={page.path}>
              <th scope="row" className="mono break">
                {page.path}
              </th>
              <td>{linked(page, page.views, 'views', {})}</td>
              <td>{page.entries}</td>
              <td>{page.exits}</td>
              {/* null: no visit of it was timed (older answers have no times either). */}
              <td>{page.medianMsOnPage == null ? '—' : formatDurationMs(page.medianMsOnPage)}</td>
              <td>{linked(page, page.rageClicks, 'sessions with rage clicks', { hasRageClicks: true })}</td>
              <td>{linked(page, page.deadClicks, 'sessions with dead clicks', { hasDeadClicks: true })}</td>
              <td>{linked(page, page.errors, 'sessions with errors', { hasErrors: true })}</td>
            </tr>
          ))}
        </InsightsTable>
      )}
    </section>
  );
}
