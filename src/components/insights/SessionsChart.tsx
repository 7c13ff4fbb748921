import type { Insights } from '../../../common/api/insights.js';
import { HOUR_MS } from '../../../common/insights.js';
import { SessionsLink } from './SessionsLink.js';
import { InsightsTable } from './InsightsTable.js';

// Sessions over time as plain SVG bars (humans below, bots stacked above): one series of at
// most 90 bars needs no chart library, and each bar is a link like every other number.

const WIDTH = 720;
const HEIGHT = 180;

export function bucketLabel(t: number, bucketMs: number): string {
  const date = new Date(t);
  return bucketMs <= HOUR_MS
    ? date.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

export function SessionsChart({ campaignId, insights }: { campaignId: string; insights: Insights }) {
  const { series, bucketMs } = insights;
  const most = Math.max(1, ...series.map((b) => b.humans + b.bots));
  const step = WIDTH / Math.max(1, series.length);
  const height = (n: number) => (n / most) * (HEIGHT - 4);
  return (
    <figure className="card insights-chart">
      <figcaption className="insights-heading">Sessions over time</figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="group"
        aria-label={`Sessions per ${bucketMs <= HOUR_MS ? 'hour' : 'day'}, humans and bots: each bar opens its sessions`}
      >
        {series.map((b, i) => (
          <SessionsLink
            key={b.t}
            campaignId={campaignId}
            filters={{ from: b.t, to: b.t + bucketMs }}
            label={`${bucketLabel(b.t, bucketMs)}: ${b.humans} humans, ${b.bots} bots`}
          >
            <rect className="bar-humans" x={i * step + 1} y={HEIGHT - height(b.humans)} width={Math.max(1, step - 2)} height={height(b.humans)} />
            <rect className="bar-bots" x={i * step + 1} y={HEIGHT - height(b.humans + b.bots)} width={Math.max(1, step - 2)} height={height(b.bots)} />
            {/* The whole column answers the pointer, empty or not. */}
            <rect className="bar-hit" x={i * step} y={0} width={step} height={HEIGHT} />
          </SessionsLink>
        ))}
      </svg>
      <p className="small muted insights-legend">
        <span className="legend-humans" aria-hidden="true" /> Humans <span className="legend-bots" aria-hidden="true" /> Bots
      </p>
      <details>
        <summary>Show as table</summary>
        <div className="table-scroll">
          <InsightsTable columns={[bucketMs <= HOUR_MS ? 'Hour' : 'Day', 'Humans', 'Bots', 'With errors']}>
            {series.map((b) => (
              <tr key={b.t}>
                <th scope="row">{bucketLabel(b.t, bucketMs)}</th>
                <td>{b.humans}</td>
                <td>{b.bots}</td>
                <td>{b.withErrors}</td>
              </tr>
            ))}
          </InsightsTable>
        </div>
      </details>
    </figure>
  );
}
