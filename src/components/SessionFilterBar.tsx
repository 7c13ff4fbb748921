import { useEffect, useEffectEvent, useState } from 'react';
import type { SessionFilters } from '../lib/sessionFilters.js';
import { filterCount } from '../lib/sessionFilters.js';
import { dayText, FLAG_LABELS } from '../lib/filterChips.js';
import { KEY_VALUE } from '../../common/session-list.js';

// The sessions list's filters and sort. Every change goes to the URL (the route's search), so a
// filtered list can be bookmarked and shared. One rule for every control: it applies as you
// change it (text fields once typing pauses, or at once on Enter or when they lose focus).
// The bar is folded behind one "Filters (n)" button at every width, so the sessions come first.

/** How long typing must pause before a text filter applies. */
export const FILTER_TYPING_PAUSE_MS = 400;

const SORTS = [
  ['', 'Newest first'],
  ['longest', 'Longest first'],
  ['active', 'Most active first'],
  ['errors', 'Most errors first'],
] as const;
const DEVICES = [
  ['', 'Any device'],
  ['desktop', 'Desktop'],
  ['mobile', 'Mobile'],
  ['tablet', 'Tablet'],
] as const;

/** "2024-05-01" (a date input's value) as epoch ms at local midnight, or undefined. */
const dayStart = (value: string) => (value ? new Date(`${value}T00:00`).getTime() : undefined);
const dayValue = (ms: number | undefined) => (ms === undefined ? '' : dayText(ms));
/** A country filter: a two-letter code, upper case, else none. */
export const countryCode = (text: string) => (/^[A-Za-z]{2}$/.test(text.trim()) ? text.trim().toUpperCase() : undefined);
/** A trait or tag filter: `key:value`, else none. */
const pair = (text: string) => (KEY_VALUE.test(text.trim()) ? text.trim() : undefined);
const seconds = (ms: number | undefined) => (ms === undefined ? '' : String(Math.round(ms / 1000)));
const fromSeconds = (text: string) => (text.trim() && Number.isFinite(Number(text)) && Number(text) >= 0 ? Math.round(Number(text) * 1000) : undefined);

/**
 * Text typed into a box whose value lives in the URL: applied once typing pauses (or at once with
 * `apply`), and replaced by the URL's value when that changes by itself (back button, a link).
 */
export function useTypedText(value: string, onApply: (text: string) => void, pauseMs = FILTER_TYPING_PAUSE_MS) {
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setText(value);
  }
  const apply = () => text !== value && onApply(text);
  const applyAfterPause = useEffectEvent(apply);
  useEffect(() => {
    const timer = window.setTimeout(() => applyAfterPause(), pauseMs);
    return () => window.clearTimeout(timer);
  }, [text, pauseMs]);
  return { text, setText, apply };
}

export function TextFilter({
  id,
  label,
  value,
  placeholder,
  onApply,
  type = 'text',
}: {
  id: string;
  label: string;
  value: string;
  placeholder?: string;
  onApply: (text: string) => void;
  type?: string;
}) {
  const { text, setText, apply } = useTypedText(value, onApply);
  return (
    <label className="filter" htmlFor={id}>
      <span>{label}</span>
      <input
        id={id}
        className="input input-small"
        type={type}
        value={text}
        placeholder={placeholder}
        onChange={(e) => setText(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => e.key === 'Enter' && apply()}
      />
    </label>
  );
}

/** A filter's select, its label above it, applied as it changes. */
export function SelectFilter({
  id,
  label,
  value,
  options,
  onApply,
}: {
  id: string;
  label: string;
  value: string;
  options: readonly (readonly [value: string, label: string])[];
  onApply: (value: string) => void;
}) {
  return (
    <label className="filter" htmlFor={id}>
      <span>{label}</span>
      <select id={id} className="input input-small" value={value} onChange={(e) => onApply(e.target.value)}>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A filter that is on or not at all, as a checkbox. */
export function FlagFilter({ id, label, checked, onApply }: { id: string; label: string; checked: boolean; onApply: (on: true | undefined) => void }) {
  return (
    <label className="filter filter-check" htmlFor={id}>
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onApply(e.target.checked ? true : undefined)} /> {label}
    </label>
  );
}

/**
 * The text filters of one bar: each a TextFilter whose id is `<prefix>-<key>` and which applies
 * its trimmed text (none when empty) once typing pauses.
 */
export function wordFilters<K extends string>(prefix: string, values: Partial<Record<K, string>>, set: (patch: Partial<Record<K, string>>) => void) {
  return (key: K, label: string, placeholder: string) => (
    <TextFilter
      id={`${prefix}-${key}`}
      label={label}
      placeholder={placeholder}
      value={values[key] ?? ''}
      onApply={(v) => set({ [key]: v.trim() || undefined } as Partial<Record<K, string>>)}
    />
  );
}

/** The select filters of one bar: each a SelectFilter whose id is `<prefix>-<key>`, none for ''. */
export function choiceFilters<K extends string>(prefix: string, values: Partial<Record<K, string>>, set: (patch: Partial<Record<K, string>>) => void) {
  return (key: K, label: string, options: readonly (readonly [value: string, label: string])[]) => (
    <SelectFilter
      id={`${prefix}-${key}`}
      label={label}
      value={values[key] ?? ''}
      options={options}
      onApply={(v) => set({ [key]: v || undefined } as Partial<Record<K, string>>)}
    />
  );
}

/** The one button the filters fold behind, at every width: "Filters (n)", n the active ones. */
export function FiltersButton({ filters, open, onOpen }: { filters: SessionFilters; open: boolean; onOpen: (open: boolean) => void }) {
  return (
    <button type="button" className="button button-secondary filters-toggle" aria-expanded={open} aria-controls="session-filters" onClick={() => onOpen(!open)}>
      Filters ({filterCount(filters)})
    </button>
  );
}

/** Every filter and the sort, each applied as it changes (the chips above the list show the active ones). */
export function SessionFilterBar({ filters, onChange }: { filters: SessionFilters; onChange: (filters: SessionFilters) => void }) {
  const set = (patch: Partial<SessionFilters>) => onChange({ ...filters, ...patch });
  const flag = (key: keyof typeof FLAG_LABELS) => (
    <FlagFilter id={`filter-${key}`} label={FLAG_LABELS[key]} checked={filters[key] === true} onApply={(on) => set({ [key]: on })} />
  );
  const words = wordFilters<'url' | 'user' | 'event' | 'browser' | 'utm'>('filter', filters, set);
  // The choices' values are the schema's own (SORTS, DEVICES), so the cast only narrows the key.
  const choice = choiceFilters<'sort' | 'device'>('filter', filters, set as (patch: Partial<Record<'sort' | 'device', string>>) => void);
  const keyValue = (key: 'trait' | 'tag', label: string, placeholder: string) => (
    <TextFilter id={`filter-${key}`} label={label} placeholder={placeholder} value={filters[key] ?? ''} onApply={(v) => set({ [key]: pair(v) })} />
  );
  const duration = (key: 'minDuration' | 'maxDuration', label: string) => (
    <TextFilter id={`filter-${key}`} label={label} type="number" value={seconds(filters[key])} onApply={(v) => set({ [key]: fromSeconds(v) })} />
  );
  return (
    <fieldset className="filter-bar" aria-label="Filters">
      <legend className="visually-hidden">Filter and sort sessions</legend>
      {choice('sort', 'Sort', SORTS)}
      {flag('hasErrors')}
      {flag('hasRageClicks')}
      {flag('hasDeadClicks')}
      {flag('hasQuickBacks')}
      {flag('hasExcessiveScrolling')}
      {flag('starred')}
      <TextFilter id="filter-from" label="From" type="date" value={dayValue(filters.from)} onApply={(v) => set({ from: dayStart(v) })} />
      <TextFilter
        id="filter-to"
        label="To"
        type="date"
        value={dayValue(filters.to === undefined ? undefined : filters.to - 1)}
        onApply={(v) => set({ to: v ? (dayStart(v) as number) + 86_400_000 : undefined })}
      />
      {duration('minDuration', 'Min duration (s)')}
      {duration('maxDuration', 'Max duration (s)')}
      {words('url', 'Visited page', '/checkout')}
      {words('user', 'User', 'customer-4711')}
      {words('event', 'Event', 'signup')}
      {keyValue('trait', 'Trait (key:value)', 'plan:pro')}
      {keyValue('tag', 'Tag (key:value)', 'team:blue')}
      <TextFilter id="filter-country" label="Country" placeholder="DE" value={filters.country ?? ''} onApply={(v) => set({ country: countryCode(v) })} />
      {words('browser', 'Browser', 'Chrome')}
      {words('utm', 'UTM campaign', 'spring-sale')}
      {choice('device', 'Device', DEVICES)}
    </fieldset>
  );
}
