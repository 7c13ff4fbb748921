import { useQuery } from '@tanstack/react-query';
import { MAX_MATCHED_COUNT } from '../../common/session-list.js';
import { funnelsQueryOptions } from '../api/funnels.js';
import { filterChips, withoutChip, type FilterChip } from '../lib/filterChips.js';
import { hasFilters, type SessionFilters } from '../lib/sessionFilters.js';
import { useCurrentSegment } from './SegmentPicker.js';

// Above a narrowed list (search, type or filters): how many it shows of the campaign's ("5 of 7
// sessions") and a chip for each active filter, the saved segment they make first, each with its
// own Remove button. The whole list needs none of it: the counters above say how many there are.

interface ActiveFiltersProps {
  campaignId: string;
  filters: SessionFilters;
  onFilters: (filters: SessionFilters) => void;
  /** The campaign's sessions, and how many the list matches when it is narrowed (by search and type too); nothing is shown when it is not. */
  total: number;
  matched: number | undefined;
}

const sessions = (n: number) => (n === 1 ? 'session' : 'sessions');

/** "5 of 7 sessions" ("1000+ of …" past what the server counts). */
export function sessionCountText(total: number, matched: number): string {
  return `${matched > MAX_MATCHED_COUNT ? `${MAX_MATCHED_COUNT}+` : matched} of ${total} ${sessions(total)}`;
}

function Chip({ chip, onRemove }: { chip: FilterChip; onRemove: () => void }) {
  return (
    <li className="filter-chip">
      <span>
        {chip.name}
        {chip.value !== undefined && `: ${chip.value}`}
      </span>
      <button type="button" className="chip-remove" aria-label={`Remove ${chip.name}`} title={`Remove ${chip.name}`} onClick={onRemove}>
        ×
      </button>
    </li>
  );
}

export function ActiveFilters({ campaignId, filters, onFilters, total, matched }: ActiveFiltersProps) {
  const segment = useCurrentSegment(campaignId, filters);
  const { data: funnel } = useQuery({
    ...funnelsQueryOptions(campaignId),
    enabled: Boolean(filters.funnel),
    select: (list) => list.funnels.find((f) => f.id === filters.funnel),
  });
  const chips = filterChips(filters, funnel);
  // A cleared list keeps its sort: the sort is not a filter.
  const clear = () => onFilters({ sort: filters.sort });
  if (matched === undefined) return null;
  return (
    <div className="list-status">
      <p className="session-count" data-testid="session-count" role="status">
        {sessionCountText(total, matched)}
      </p>
      {chips.length > 0 && (
        <ul className="filter-chips" aria-label="Active filters">
          {segment && <Chip chip={{ name: 'Segment', value: segment.name, keys: [] }} onRemove={clear} />}
          {chips.map((chip) => (
            <Chip key={chip.name} chip={chip} onRemove={() => onFilters(withoutChip(filters, chip))} />
          ))}
        </ul>
      )}
      {hasFilters({ ...filters, sort: undefined }) && (
        <button type="button" className="button button-secondary button-small" onClick={clear}>
          Clear filters
        </button>
      )}
    </div>
  );
}
