import { useMemo } from 'react';
import { useNavigate } from '@tanstack/react-router';
import uPlot from 'uplot';
import type { Insights } from '../../../common/api/insights.js';
import { bucketFilters, SessionsLink, type SessionsSearch } from './SessionsLink.js';
import { InsightsTable } from './InsightsTable.js';
import { bucketLabel, bucketSessions, bucketUnit, sessionsColumns, sessionsSummary } from './chartData.js';
import { useInsightsChart, type ChartSpec } from './useInsightsChart.js';

// Sessions over time as uPlot bars, humans below and bots stacked above. Hovering a bucket shows
// its counts, clicking it opens its sessions; the table gives the same figures and links to
// keyboard and screen-reader users.

const bars = uPlot.paths.bars!({ size: [0.8, Infinity], gap: 1 });

export function SessionsChart({ campaignId, insights }: { campaignId: string; insights: Insights }) {
  const { series, bucketMs } = insights;
  const unit = bucketUnit(bucketMs);
  const navigate = useNavigate();
  const spec = useMemo<ChartSpec>(
    () => ({
      height: 180,
      // The whole bar (humans + bots) in amber, then the humans over its foot in green; no outline,
      // which would draw an empty bucket as a line.
      series: (css) => [
        { label: 'Bots', fill: css('--amber'), width: 0, paths: bars, points: { show: false } },
        { label: 'Humans', fill: css('--green'), width: 0, paths: bars, points: { show: false } },
      ],
      data: sessionsColumns(insights),
      label: sessionsSummary(insights),
      onBucket: (b) => void navigate({ to: '/campaign/$campaignId', params: { campaignId }, search: bucketFilters(b.t, insights.bucketMs, insights) }),
    }),
    [campaignId, insights, navigate],
  );
  const { ref, hovered } = useInsightsChart(insights, spec);
  return (
    <figure className="card insights-chart">
      <figcaption className="insights-heading">Sessions over time</figcaption>
      <div ref={ref} className="insights-plot insights-plot-link" />
      <p className="small muted insights-legend">
        <span className="legend-humans" aria-hidden="true" /> Humans <span className="legend-bots" aria-hidden="true" /> Bots
        {/* The pointer's bucket; the table says the same to everyone else. */}
        <span className="insights-readout" aria-hidden="true">
          {hovered ? bucketSessions(hovered, bucketMs) : ''}
        </span>
      </p>
      <details>
        <summary>Show as table</summary>
        <InsightsTable columns={[unit === 'hour' ? 'Hour' : 'Day', 'Humans', 'Bots', 'With errors']}>
          {series.map((b) => {
            const bucket = bucketFilters(b.t, bucketMs, insights);
            const when = bucketLabel(b.t, bucketMs);
            const cell = (count: number, what: string, filters: SessionsSearch) => (
              <td>
                <SessionsLink campaignId={campaignId} filters={{ ...bucket, ...filters }} label={`${count} ${what}: ${when}`}>
                  {count}
                </SessionsLink>
              </td>
            );
            return (
              <tr key={b.t}>
                <th scope="row">
                  <SessionsLink campaignId={campaignId} filters={bucket} label={bucketSessions(b, bucketMs)}>
                    {when}
                  </SessionsLink>
                </th>
                {cell(b.humans, 'human sessions', { type: 'human' })}
                {cell(b.bots, 'bot sessions', { type: 'bot' })}
                {cell(b.withErrors, 'sessions with errors', { hasErrors: true })}
              </tr>
            );
          })}
        </InsightsTable>
      </details>
    </figure>
  );
}
