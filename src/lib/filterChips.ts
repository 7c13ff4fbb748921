// The sessions list's active filters as chips: each names its filter and value ("Visited page:
// /checkout", "Funnel step: 2 · /product") and knows which of the URL's keys it takes away.
import type { Funnel } from '../../common/api/funnels.js';
import type { SessionFilters } from './sessionFilters.js';
import type { UnknownValue } from '../../common/session-list.js';
import { stepLabel } from './funnelSteps.js';

export interface FilterChip {
  /** The filter's name, as its control in the filter bar is labelled. */
  name: string;
  value?: string;
  /** What removing the chip takes out of the filters. */
  keys: (keyof SessionFilters)[];
}

/** The yes/no filters' labels (the filter bar's checkboxes and their chips). */
export const FLAG_LABELS = {
  hasErrors: 'Has errors',
  hasRageClicks: 'Has rage clicks',
  hasDeadClicks: 'Has dead clicks',
  hasQuickBacks: 'Quick backs',
  hasExcessiveScrolling: 'Excessive scrolling',
  hasFrustration: 'Has frustration',
  hasFailedRequests: 'Has failed requests',
  starred: 'Starred',
} as const;

const TEXT_LABELS = {
  url: 'Visited page',
  user: 'User',
  event: 'Event',
  trait: 'Trait',
  tag: 'Tag',
  country: 'Country',
  browser: 'Browser',
  utm: 'UTM campaign',
  utmSource: 'UTM source',
  utmMedium: 'UTM medium',
  error: 'Error',
  os: 'OS',
  referrer: 'Referrer',
  page: 'Viewed page',
  entry: 'Entry page',
  exit: 'Exit page',
} as const;

/** "2026-12-07", the local day of `ms` (a date input's value; a date filter's chip). */
export const dayText = (ms: number) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The funnel's chip: the step (its number, what it is, the funnel's name) and the outcome. */
function funnelChip(filters: SessionFilters, funnel: Funnel | undefined): FilterChip {
  const keys: FilterChip['keys'] = ['funnel', 'step', 'outcome'];
  const name = funnel?.name ?? 'a funnel';
  const outcome = filters.outcome === 'dropped' ? ', dropped off after' : filters.outcome === 'converted' ? ', converted' : '';
  if (filters.step === undefined) return { name: 'Funnel', value: `${name}${outcome || ', entered'}`, keys };
  const step = funnel?.steps[filters.step - 1];
  return { name: 'Funnel step', value: `${filters.step}${step ? ` · ${stepLabel(step)}` : ''} (${name})${outcome}`, keys };
}

/** What an `unknown` value names, as the insights' tables head it. */
const UNKNOWN_LABELS: Record<UnknownValue, string> = {
  ...{ country: 'Country', device: 'Device', browser: 'Browser', os: 'OS', screen: 'Screen' },
  ...{ utmSource: 'UTM source', utmMedium: 'UTM medium', utm: 'UTM campaign' },
};
const unknownLabel = (value: string) => UNKNOWN_LABELS[value as UnknownValue] ?? value;

/** The chips of `filters` (the sort is not a filter: it has none), in the filter bar's order. */
export function filterChips(filters: SessionFilters, funnel?: Funnel): FilterChip[] {
  const chips: FilterChip[] = [];
  for (const [key, label] of Object.entries(FLAG_LABELS) as [keyof typeof FLAG_LABELS, string][]) if (filters[key]) chips.push({ name: label, keys: [key] });
  if (filters.from !== undefined) chips.push({ name: 'From', value: dayText(filters.from), keys: ['from'] });
  if (filters.to !== undefined) chips.push({ name: 'To', value: dayText(filters.to - 1), keys: ['to'] });
  if (filters.minDuration !== undefined) chips.push({ name: 'Min duration', value: `${Math.round(filters.minDuration / 1000)}s`, keys: ['minDuration'] });
  if (filters.maxDuration !== undefined) chips.push({ name: 'Max duration', value: `${Math.round(filters.maxDuration / 1000)}s`, keys: ['maxDuration'] });
  for (const [key, label] of Object.entries(TEXT_LABELS) as [keyof typeof TEXT_LABELS, string][])
    if (filters[key] !== undefined) chips.push({ name: label, value: filters[key], keys: [key] });
  if (filters.device) chips.push({ name: 'Device', value: capitalised(filters.device), keys: ['device'] });
  if (filters.unknown) chips.push({ name: 'Unknown', value: filters.unknown.split(',').map(unknownLabel).join(', '), keys: ['unknown'] });
  if (filters.screen) chips.push({ name: 'Screen', value: filters.screen.replace('x', '×'), keys: ['screen'] });
  if (filters.funnel) chips.push(funnelChip(filters, funnel));
  return chips;
}

/** The filters without the chip's. */
export const withoutChip = (filters: SessionFilters, chip: FilterChip): SessionFilters =>
  Object.fromEntries(Object.entries(filters).filter(([key]) => !chip.keys.includes(key as keyof SessionFilters)));
