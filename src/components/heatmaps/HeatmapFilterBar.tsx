import { Link } from '@tanstack/react-router';
import type { Heatmap } from '../../../common/api/heatmaps.js';
import { sessionsOfHeatmap, type HeatmapFilters } from '../../lib/heatmapFilters.js';
import { TextFilter } from '../SessionFilterBar.js';

// The heatmaps screen's session filters: a compact set of the sessions list's (who, what they
// met), each applied as it changes, and a link to the list of the sessions the heat comes from.

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
  const text = (key: 'user' | 'event' | 'browser', label: string, placeholder: string) => (
    <TextFilter
      id={`heatmap-${key}`}
      label={label}
      placeholder={placeholder}
      value={filters[key] ?? ''}
      onApply={(v) => set({ [key]: v.trim() || undefined })}
    />
  );
  return (
    <fieldset className="filter-bar heatmap-filters" aria-label="Session filters">
      <legend className="visually-hidden">Which sessions the heat comes from</legend>
      <label className="filter" htmlFor="heatmap-type">
        <span>Sessions</span>
        <select
          id="heatmap-type"
          className="input input-small"
          value={filters.type ?? ''}
          onChange={(e) => set({ type: (e.target.value || undefined) as HeatmapFilters['type'] })}
        >
          <option value="">Humans and bots</option>
          <option value="human">Humans</option>
          <option value="bot">Bots</option>
        </select>
      </label>
      {FLAGS.map(([key, label]) => (
        <label key={key} className="filter filter-check" htmlFor={`heatmap-${key}`}>
          <input id={`heatmap-${key}`} type="checkbox" checked={filters[key] === true} onChange={(e) => set({ [key]: e.target.checked ? true : undefined })} />{' '}
          {label}
        </label>
      ))}
      {text('user', 'User', 'customer-4711')}
      {text('event', 'Event', 'signup')}
      <TextFilter
        id="heatmap-country"
        label="Country"
        placeholder="DE"
        value={filters.country ?? ''}
        onApply={(v) => set({ country: /^[A-Za-z]{2}$/.test(v.trim()) ? v.trim().toUpperCase() : undefined })}
      />
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
