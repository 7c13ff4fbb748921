import { Link } from '@tanstack/react-router';
import type { Heatmap } from '../../../common/api/heatmaps.js';
import { sessionsOfHeatmap, type HeatmapFilters } from '../../lib/heatmapFilters.js';
import { choiceFilters, countryCode, FlagFilter, TextFilter, wordFilters } from '../SessionFilterBar.js';

// The heatmaps screen's session filters: a compact set of the sessions list's (who, what they
// met), each applied as it changes, and a link to the list of the sessions the heat comes from.

const TYPES = [
  ['', 'Humans and bots'],
  ['human', 'Humans'],
  ['bot', 'Bots'],
] as const;
type Flag = 'hasErrors' | 'hasRageClicks' | 'hasDeadClicks';
const FLAGS: [Flag, string][] = [
  ['hasErrors', 'Has errors'],
  ['hasRageClicks', 'Has rage clicks'],
  ['hasDeadClicks', 'Has dead clicks'],
];

interface Props {
  campaignId: string;
  filters: HeatmapFilters;
  heatmap: Heatmap | undefined;
  onChange: (filters: HeatmapFilters) => void;
}

export function HeatmapFilterBar({ campaignId, filters, heatmap, onChange }: Props) {
  const set = (patch: Partial<HeatmapFilters>) => onChange({ ...filters, ...patch });
  const text = wordFilters<'user' | 'event' | 'browser'>('heatmap', filters, set);
  const choice = choiceFilters<'type'>('heatmap', filters, set as (patch: Partial<Record<'type', string>>) => void);
  return (
    <fieldset className="filter-bar heatmap-filters" aria-label="Session filters">
      <legend className="visually-hidden">Which sessions the heat comes from</legend>
      {choice('type', 'Sessions', TYPES)}
      {FLAGS.map(([key, label]) => (
        <FlagFilter key={key} id={`heatmap-${key}`} label={label} checked={filters[key] === true} onApply={(on) => set({ [key]: on })} />
      ))}
      {text('user', 'User', 'customer-4711')}
      {text('event', 'Event', 'signup')}
      <TextFilter id="heatmap-country" label="Country" placeholder="DE" value={filters.country ?? ''} onApply={(v) => set({ country: countryCode(v) })} />
      {text('browser', 'Browser', 'Chrome')}
      {heatmap && (
        <Link
          to="/campaign/$campaignId"
          params={{ campaignId }}
          search={sessionsOfHeatmap(filters, heatmap)}
          className="button button-secondary button-small heatmap-sessions-link"
        >
          Sessions
        </Link>
      )}
      {Object.keys(filters).length > 0 && (
        <button type="button" className="button button-secondary button-small" onClick={() => onChange({})}>
          Clear filters
        </button>
      )}
    </fieldset>
  );
}
