import '../components/heatmaps/heatmaps.css';
import { useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Heatmap } from '../../common/api/heatmaps.js';
import { VIEWPORT_CLASSES, type ViewportClass } from '../../common/devices.js';
import { HEATMAP_DAYS, heatmapClicksQueryOptions, heatmapErrorMessage, heatmapPagesQueryOptions, heatmapQueryOptions } from '../api/heatmaps.js';
import type { InsightsDays } from '../api/insights.js';
import { HEAT_GRADIENT, layerCount } from '../lib/heat.js';
import { HEAT_LAYERS, type HeatLayer } from '../lib/heatLayers.js';
import { CampaignTabs } from '../components/CampaignTabs.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { Spinner } from '../components/Spinner.js';
import { HeatmapSnapshot } from '../components/heatmaps/HeatmapSnapshot.js';
import { InsightsHeader, RANGE_LABELS } from '../components/insights/InsightsHeader.js';
import { InsightsTable } from '../components/insights/InsightsTable.js';
import { HeatmapFilterBar } from '../components/heatmaps/HeatmapFilterBar.js';
import { elementLabels } from '../components/heatmaps/elementLabels.js';
import type { HeatmapFilters } from '../lib/heatmapFilters.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const VIEWPORT_LABELS: Record<ViewportClass, string> = { desktop: 'Desktop', tablet: 'Tablet', mobile: 'Mobile' };

export interface HeatmapSearch {
  path?: string;
  device?: ViewportClass;
  layer: HeatLayer;
  days: InsightsDays;
  filters: HeatmapFilters;
}

interface Props extends HeatmapSearch {
  campaignId: string;
  onChange: (next: Partial<HeatmapSearch>) => void;
}

export function CampaignHeatmaps({ campaignId, path, device, layer, days, filters, onChange }: Props) {
  // The last heatmap read stays on screen while another loads; offline it comes from the persisted cache.
  const pages = useQuery({ ...heatmapPagesQueryOptions(campaignId, days), placeholderData: keepPreviousData });
  const heatmap = useQuery({ ...heatmapQueryOptions(campaignId, { path, device, days, filters }), placeholderData: keepPreviousData });
  const [picked, setPicked] = useState<string | null>(null);
  const shown = heatmap.data;
  const choose = (next: Partial<HeatmapSearch>) => {
    setPicked(null);
    onChange(next);
  };
  return (
    <div className="page insights-page heatmaps-page">
      <InsightsHeader campaignId={campaignId} title="Heatmaps" />
      <CampaignTabs campaignId={campaignId} current="heatmaps" />
      <div className="heatmap-controls card">
        <label>
          Page
          <select className="input" value={shown?.path ?? path ?? ''} onChange={(e) => choose({ path: e.target.value, device: undefined })}>
            {(pages.data?.pages ?? []).map((p) => (
              <option key={p.path} value={p.path}>
                {p.path} ({p.views} views)
              </option>
            ))}
            {shown && !pages.data?.pages.some((p) => p.path === shown.path) && <option value={shown.path}>{shown.path}</option>}
          </select>
        </label>
        <label>
          Device
          <select
            className="input"
            value={shown?.device ?? device ?? 'desktop'}
            onChange={(e) => choose({ device: e.target.value as ViewportClass, path: shown?.path ?? path })}
          >
            {VIEWPORT_CLASSES.map((d) => (
              <option key={d} value={d}>
                {VIEWPORT_LABELS[d]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Layer
          <select className="input" value={layer} onChange={(e) => choose({ layer: e.target.value as HeatLayer })}>
            {HEAT_LAYERS.map((l) => (
              <option key={l.layer} value={l.layer}>
                {l.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Range
          <select className="input" value={days} onChange={(e) => choose({ days: Number(e.target.value) as InsightsDays })}>
            {HEATMAP_DAYS.map((d) => (
              <option key={d} value={d}>
                {RANGE_LABELS[d]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <HeatmapFilterBar campaignId={campaignId} filters={filters} heatmap={shown} onChange={(next) => choose({ filters: next })} />
      {heatmap.isError && !shown && <ErrorBox title={heatmapErrorMessage(heatmap.error)} />}
      {heatmap.isPending && <Spinner label="Loading the heatmap" />}
      {shown && <HeatmapBody campaignId={campaignId} heatmap={shown} layer={layer} days={days} filters={filters} picked={picked} onPick={setPicked} />}
    </div>
  );
}

interface BodyProps {
  campaignId: string;
  heatmap: Heatmap;
  layer: HeatLayer;
  days: InsightsDays;
  filters: HeatmapFilters;
  picked: string | null;
  onPick: (selector: string) => void;
}

function HeatmapBody({ campaignId, heatmap, layer, days, filters, picked, onPick }: BodyProps) {
  const sessions = layer === 'all' ? heatmap.sessions : heatmap.layerSessions[layer];
  const elements = heatmap.elements.filter((e) => layerCount(e, layer) > 0).sort((a, b) => layerCount(b, layer) - layerCount(a, layer));
  // Named from the rebuilt page once it is there (where each element sits), from the heatmap alone before.
  const [doc, setDoc] = useState<Document | null>(null);
  const labels = useMemo(() => elementLabels(heatmap.elements, doc), [heatmap.elements, doc]);
  return (
    <div className="heatmap-layout">
      <section className="card heatmap-picture" aria-label="Heatmap">
        <p className="heatmap-summary" data-testid="heatmap-summary">
          {plural(layerCount(heatmap, layer), 'click')} from {plural(sessions, 'session')}
        </p>
        {heatmap.sampled && <p className="muted">Counted from the most recent matching sessions only.</p>}
        <div className="heatmap-legend" aria-hidden="true">
          <span>Fewer</span>
          <span className="heatmap-legend-bar" style={{ background: HEAT_GRADIENT }} />
          <span>More</span>
        </div>
        <HeatmapSnapshot campaignId={campaignId} heatmap={heatmap} layer={layer} labels={labels} onPick={onPick} onPage={setDoc} />
      </section>
      <aside className="heatmap-side">
        <section className="card" aria-label="Most clicked elements">
          <h2 className="insights-heading">Elements</h2>
          <InsightsTable className="heatmap-elements" columns={['Element', 'Clicks', 'Rage', 'Dead', 'Errors']}>
            {elements.map((e) => (
              <tr key={e.selector} aria-selected={picked === e.selector}>
                <th scope="row">
                  <button type="button" className="link-button" onClick={() => onPick(e.selector)}>
                    {labels.get(e.selector)}
                  </button>
                </th>
                <td>{e.clicks}</td>
                <td>{e.rageClicks}</td>
                <td>{e.deadClicks}</td>
                <td>{e.errorClicks}</td>
              </tr>
            ))}
          </InsightsTable>
        </section>
        {picked && <Clickers campaignId={campaignId} heatmap={heatmap} selector={picked} label={labels.get(picked) ?? picked} days={days} filters={filters} />}
        <ScrollMap heatmap={heatmap} />
      </aside>
    </div>
  );
}

function Clickers({
  campaignId,
  heatmap,
  selector,
  label,
  days,
  filters,
}: {
  campaignId: string;
  heatmap: Heatmap;
  selector: string;
  label: string;
  days: InsightsDays;
  filters: HeatmapFilters;
}) {
  const clickers = useQuery(heatmapClicksQueryOptions(campaignId, heatmap.path, heatmap.device, selector, days, filters));
  return (
    <section className="card" aria-label="Sessions that clicked it">
      <h2 className="insights-heading">Sessions that clicked “{label}”</h2>
      {clickers.isPending && <Spinner label="Loading sessions" />}
      {clickers.isError && <p className="muted">{heatmapErrorMessage(clickers.error)}</p>}
      <ul className="heatmap-clickers">
        {clickers.data?.sessions.map((s) => (
          <li key={s.sessionId}>
            <Link
              to="/campaign/$campaignId/session/$sessionId"
              params={{ campaignId, sessionId: s.sessionId }}
              search={{ t: Math.max(0, Math.floor((s.at - s.startedAt) / 1000) - 1) }}
            >
              {new Date(s.at).toLocaleString()}
            </Link>{' '}
            · {s.clicks} clicks{s.rageClicks ? ` · ${s.rageClicks} rage` : ''}
            {s.deadClicks ? ` · ${s.deadClicks} dead` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}

function ScrollMap({ heatmap }: { heatmap: Heatmap }) {
  const top = heatmap.scroll[0]?.reached || heatmap.views || 1;
  return (
    <section className="card" aria-label="Scroll map">
      <h2 className="insights-heading">Scroll depth</h2>
      <p className="muted">Average fold: {heatmap.averageFold}% of the page</p>
      <InsightsTable columns={['Depth', 'Reached']}>
        {heatmap.scroll.map((s) => (
          <tr key={s.depth}>
            <th scope="row">{s.depth}%</th>
            <td>
              <span className="heatmap-reach" style={{ width: `${Math.round((s.reached / top) * 100)}%` }} />
              {Math.round((s.reached / top) * 100)}%
            </td>
          </tr>
        ))}
      </InsightsTable>
    </section>
  );
}
