import type { Insights } from '../../../common/api/insights.js';
import { HOUR_MS } from '../../../common/insights.js';
import { InsightsTable } from './InsightsTable.js';
import { bucketLabel } from './SessionsChart.js';

// The frustration kinds over the range as small plain-SVG lines, one per kind (coloured and dashed
// as the legend shows), with the same figures as a table: as the sessions chart, no chart library.

const WIDTH = 720;
const HEIGHT = 120;

type Bucket = Insights['series'][number];
type Kind = 'rageClicks' | 'deadClicks' | 'quickBacks' | 'excessiveScrolls' | 'errors' | 'failedRequests';

const KINDS: [Kind, string, string][] = [
  ['rageClicks', 'Rage clicks', ''],
  ['deadClicks', 'Dead clicks', '6 3'],
  ['quickBacks', 'Quick backs', '2 3'],
  ['excessiveScrolls', 'Excessive scrolling', '10 4'],
  ['errors', 'Errors', '6 2 2 2'],
  ['failedRequests', 'Failed requests', '1 2'],
];

/** A bucket's count of a kind (0 in an answer cached before the series carried it). */
const countOf = (bucket: Bucket, kind: Kind) => bucket[kind] ?? 0;

export function FrustrationTrend({ insights }: { insights: Insights }) {
  const { series, bucketMs } = insights;
  const most = Math.max(1, ...series.flatMap((b) => KINDS.map(([kind]) => countOf(b, kind))));
  const step = WIDTH / Math.max(1, series.length);
  const point = (b: Bucket, i: number, kind: Kind) => `${(i + 0.5) * step},${HEIGHT - 2 - (countOf(b, kind) / most) * (HEIGHT - 4)}`;
  const unit = bucketMs <= HOUR_MS ? 'hour' : 'day';
  return (
    <figure className="insights-trend">
      <figcaption className="small muted">Frustration per {unit}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`Frustration per ${unit}: the table below gives the figures`}>
        {KINDS.map(([kind, , dash]) => (
          <polyline key={kind} className={`trend-${kind}`} points={series.map((b, i) => point(b, i, kind)).join(' ')} strokeDasharray={dash || undefined} />
        ))}
      </svg>
      <p className="small muted trend-legend">
        {KINDS.map(([kind, name]) => (
          <span key={kind} className="trend-key">
            <span className={`trend-swatch legend-${kind}`} aria-hidden="true" /> {name}
          </span>
        ))}
      </p>
      <details>
        <summary>Show frustration as table</summary>
        <div className="table-scroll">
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
        </div>
      </details>
    </figure>
  );
}
