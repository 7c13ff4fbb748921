import { useMemo } from 'react';
import type { Insights } from '../../../common/api/insights.js';
import { InsightsTable } from './InsightsTable.js';
import { KINDS, bucketFrustration, bucketLabel, bucketUnit, countOf, frustrationColumns, frustrationSummary } from './chartData.js';
import { useInsightsChart, type ChartSpec } from './useInsightsChart.js';

// The frustration kinds over the range as uPlot lines, one per kind, coloured (CSS variables
// --trend-<kind>, shared with the legend) and dashed as the legend shows, with the same figures as a table.

export function FrustrationTrend({ insights }: { insights: Insights }) {
  const { series, bucketMs } = insights;
  const unit = bucketUnit(bucketMs);
  const spec = useMemo<ChartSpec>(
    () => ({
      height: 140,
      series: (css) => KINDS.map(([kind, name, dash]) => ({ label: name, stroke: css(`--trend-${kind}`), width: 2, dash, points: { show: false } })),
      data: frustrationColumns(insights),
      label: frustrationSummary(insights),
    }),
    [insights],
  );
  const { ref, hovered } = useInsightsChart(insights, spec);
  return (
    <figure className="insights-trend">
      <figcaption className="small muted">Frustration per {unit}</figcaption>
      <div ref={ref} className="insights-plot" />
      <p className="small muted trend-legend">
        {KINDS.map(([kind, name, dash]) => (
          <span key={kind} className="trend-key">
            <svg className="trend-swatch" viewBox="0 0 24 8" aria-hidden="true">
              <line x1="0" y1="4" x2="24" y2="4" stroke={`var(--trend-${kind})`} strokeDasharray={dash.join(' ') || undefined} />
            </svg>{' '}
            {name}
          </span>
        ))}
        <span className="insights-readout" aria-hidden="true">
          {hovered ? bucketFrustration(hovered, bucketMs) : ''}
        </span>
      </p>
      <details>
        <summary>Show frustration as table</summary>
        <InsightsTable columns={[unit === 'hour' ? 'Hour' : 'Day', ...KINDS.map(([, name]) => name)]}>
          {series.map((b) => (
            <tr key={b.t}>
              <th scope="row">{bucketLabel(b.t, bucketMs)}</th>
              {KINDS.map(([kind]) => (
                <td key={kind}>{countOf(b, kind)}</td>
              ))}
            </tr>
          ))}
        </InsightsTable>
      </details>
    </figure>
  );
}
