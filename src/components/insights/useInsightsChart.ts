import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Insights } from '../../../common/api/insights.js';
import { bucketAt, xRange } from './chartData.js';

// An insights chart drawn by uPlot in the element `ref` is put on: as wide as its card (followed
// with a ResizeObserver), coloured from the app's CSS variables, destroyed on unmount. The x axis
// is the range's time; a point of it stands for the bucket (hour or day) that holds it, for the
// hover readout and for a click.

type Bucket = Insights['series'][number];

export interface ChartSpec {
  height: number;
  /** The drawn series (uPlot's series 1…), coloured with `css(name)`, a CSS variable's value at the chart. */
  series: (css: (name: string) => string) => uPlot.Series[];
  data: uPlot.AlignedData;
  /** The canvas's accessible name: a summary, and where the figures are. */
  label: string;
  /** A click on the plot, with the bucket under it. */
  onBucket?: (bucket: Bucket) => void;
}

/** Whole counts only on the y axis. */
const COUNT_INCRS = [1, 10, 100, 1e3, 1e4, 1e5, 1e6].flatMap((p) => [p, 2 * p, 5 * p]);

export function useInsightsChart(insights: Insights, spec: ChartSpec) {
  const ref = useRef<HTMLDivElement>(null);
  const [hoveredT, setHoveredT] = useState<number | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const style = getComputedStyle(el);
    const css = (name: string) => style.getPropertyValue(name).trim();
    // uPlot keeps the cursor at -10 px while the pointer is off the plot.
    const bucketUnder = (u: uPlot, left: number) => (left < 0 ? null : bucketAt(insights, u.posToVal(left, 'x')));
    const axis: uPlot.Axis = { stroke: css('--muted'), grid: { stroke: css('--border'), width: 1 }, ticks: { stroke: css('--border'), width: 1 } };
    const chart = new uPlot(
      {
        width: el.clientWidth,
        height: spec.height,
        ms: 1,
        legend: { show: false },
        // No drag-to-zoom: a press on the plot is a click on its bucket.
        cursor: { drag: { x: false, y: false }, points: { show: false }, y: false },
        scales: {
          x: { time: true, range: () => xRange(insights) },
          y: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] },
        },
        axes: [axis, { ...axis, incrs: COUNT_INCRS }],
        series: [{}, ...spec.series(css)],
        hooks: { setCursor: [(u) => setHoveredT(bucketUnder(u, u.cursor.left ?? -1)?.t ?? null)] },
      },
      spec.data,
      el,
    );
    const canvas = chart.root.querySelector('canvas');
    canvas?.setAttribute('role', 'img');
    canvas?.setAttribute('aria-label', spec.label);
    const { onBucket } = spec;
    if (onBucket) {
      chart.over.addEventListener('click', (event) => {
        const bucket = bucketUnder(chart, event.clientX - chart.over.getBoundingClientRect().left);
        if (bucket) onBucket(bucket);
      });
    }
    const resize = new ResizeObserver(() => {
      if (el.clientWidth !== chart.width) chart.setSize({ width: el.clientWidth, height: spec.height });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [insights, spec]);
  return { ref, hovered: insights.series.find((b) => b.t === hoveredT) ?? null };
}
