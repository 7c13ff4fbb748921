import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { ReplayEvent } from '../../../common/api-types.js';
import { formatPlayerTime } from '../player/playerMath.js';
import { momentLink } from './moment.js';
import {
  ACTIVITY_KINDS,
  ACTIVITY_NAMES,
  activityItems,
  activityLabel,
  activityName,
  capturedEntries,
  noteItems,
  currentItemIndex,
  markerGroups,
  type ActivityItem,
  type ActivityKind,
} from './activity.js';

// Under the player: a strip of markers, one button per moment (moments closer than a finger's
// width share one), placed along the recording's length and coloured by kind; clicking one seeks
// the player there. Inactivity stretches are drawn as bands (the list below names them). One Tab stop for the whole
// strip (arrow keys, Home and End move between markers), so Tab goes on past it to the page.

export interface TimelineProps {
  items: ActivityItem[];
  totalTime: number;
  onSeek(ms: number): void;
}

const MARKER_KEYS: Record<string, (index: number, last: number) => number> = {
  ArrowRight: (i, last) => Math.min(last, i + 1),
  ArrowDown: (i, last) => Math.min(last, i + 1),
  ArrowLeft: (i) => Math.max(0, i - 1),
  ArrowUp: (i) => Math.max(0, i - 1),
  Home: () => 0,
  End: (_, last) => last,
};

export function ActivityMarkers({ items, totalTime, onSeek }: TimelineProps) {
  const [focusIndex, setFocusIndex] = useState(0);
  const [strip, width] = useWidth<HTMLDivElement>();
  const groups = useMemo(() => (totalTime > 0 && width > 0 ? markerGroups(items, totalTime, width) : []), [items, totalTime, width]);
  // The strip's room is kept while there is nothing to mark yet: the player is fitted above it.
  if (!items.length || totalTime <= 0) return <div className="activity-markers" aria-hidden="true" />;
  const tabStop = Math.min(focusIndex, Math.max(0, groups.length - 1));
  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const move = MARKER_KEYS[event.key];
    if (!move || !groups.length) return;
    event.preventDefault();
    const next = move(tabStop, groups.length - 1);
    setFocusIndex(next);
    event.currentTarget.querySelectorAll('button')[next]?.focus();
  };
  return (
    <div className="activity-markers" role="group" aria-label="Activity timeline" onKeyDown={onKey} ref={strip}>
      {items.map((item, i) =>
        item.kind === 'inactivity' ? (
          <span
            key={`inactivity-${item.at}-${i}`}
            className="activity-band activity-inactivity"
            style={{ left: `${Math.min(100, (item.at / totalTime) * 100)}%`, width: `${Math.min(100, ((item.durationMs ?? 0) / totalTime) * 100)}%` }}
            aria-hidden="true"
            title={activityLabel(item)}
          />
        ) : null,
      )}
      {groups.map((group, i) => (
        <button
          key={`${group.at}-${i}`}
          type="button"
          className={`activity-marker activity-${group.kind}`}
          style={{ left: `${group.x}px` }}
          aria-label={group.label}
          title={group.label}
          tabIndex={i === tabStop ? 0 : -1}
          onFocus={() => setFocusIndex(i)}
          onClick={() => onSeek(group.at)}
        />
      ))}
    </div>
  );
}

/** A ref for an element and its width in pixels, kept up to date as it resizes. */
function useWidth<T extends HTMLElement>(): [(element: T | null) => (() => void) | undefined, number] {
  const [width, setWidth] = useState(0);
  const ref = useCallback((element: T | null) => {
    if (!element) return undefined;
    setWidth(element.clientWidth);
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

type Tab = 'activity' | 'pages' | 'console' | 'network';

export interface ActivityPanelProps {
  events: ReplayEvent[];
  items: ActivityItem[];
  currentTime: number;
  onSeek(ms: number): void;
  /** The replay's notes panel (replay/Notes.tsx), above the tabs. */
  notes?: ReactNode;
}

/** Beside the player (below it on phones): the same moments listed, filterable; the console and network entries. */
export function ActivityPanel({ events, items, currentTime, onSeek, notes }: ActivityPanelProps) {
  const [tab, setTab] = useState<Tab>('activity');
  const [kind, setKind] = useState<ActivityKind | 'all'>('all');
  const captured = useMemo(() => capturedEntries(events), [events]);
  const shown = kind === 'all' ? items : items.filter((item) => item.kind === kind);
  const current = currentItemIndex(shown, currentTime);
  // The current item stays in view as the recording plays: the list scrolls, never the page.
  const listRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const list = listRef.current;
    const item = list?.querySelector('.activity-current');
    if (!list || !item) return;
    const [outer, inner] = [list.getBoundingClientRect(), item.getBoundingClientRect()];
    if (inner.top < outer.top) list.scrollTop -= outer.top - inner.top;
    else if (inner.bottom > outer.bottom) list.scrollTop += Math.min(inner.bottom - outer.bottom, inner.top - outer.top);
  }, [current, tab, kind]);
  const tabs: [Tab, string][] = [
    ['activity', 'Activity'],
    ['console', 'Console'],
    ['network', 'Network'],
    ['pages', 'Pages'],
  ];

  return (
    <section className="card activity-panel" aria-label="Session activity">
      <CopyMomentLink currentTime={currentTime} />
      {notes}
      <div className="activity-tabs" role="group" aria-label="Show">
        {tabs.map(([id, name]) => (
          <button key={id} type="button" className="player-button activity-tab" aria-pressed={tab === id} onClick={() => setTab(id)}>
            {name}
          </button>
        ))}
      </div>
      {tab === 'activity' && (
        <>
          <label className="activity-filter">
            Kind{' '}
            <select value={kind} onChange={(e) => setKind(e.target.value as ActivityKind | 'all')}>
              <option value="all">All</option>
              {ACTIVITY_KINDS.map((k) => (
                <option key={k} value={k}>
                  {ACTIVITY_NAMES[k]}
                </option>
              ))}
            </select>
          </label>
          <h2 className="activity-heading">Activity</h2>
          {shown.length ? (
            <ol className="activity-list" ref={listRef}>
              {shown.map((item, i) => (
                <li
                  key={`${item.kind}-${item.at}-${i}`}
                  className={i === current ? 'activity-current' : undefined}
                  aria-current={i === current ? 'true' : undefined}
                >
                  <button type="button" className="activity-jump" onClick={() => onSeek(item.at)}>
                    <span className={`activity-dot activity-${item.kind}`} aria-hidden="true" />
                    <span className="activity-time">{formatPlayerTime(item.at)}</span> {activityName(item)}
                    {item.detail && <span className="mono small"> {item.detail}</span>}
                    {item.durationMs !== undefined && <span className="small muted"> ({formatPlayerTime(item.durationMs)})</span>}
                  </button>
                </li>
              ))}
            </ol>
          ) : (
            <p className="muted small">Nothing of this kind in this session.</p>
          )}
        </>
      )}
      {(tab === 'console' || tab === 'network') && <CapturedList title={tab === 'console' ? 'Console' : 'Network'} entries={captured[tab]} onSeek={onSeek} />}
      {tab === 'pages' && <CapturedList title="Pages visited" entries={pagesVisited(items)} onSeek={onSeek} />}
    </section>
  );
}

/** Puts this page's address with `?t=` at the player's second on the clipboard. */
function CopyMomentLink({ currentTime }: { currentTime: number }) {
  const [status, setStatus] = useState('');
  const copy = async () => {
    const link = momentLink(window.location.href, currentTime);
    try {
      await navigator.clipboard.writeText(link);
      setStatus(`Link copied: ${link}`);
    } catch {
      setStatus(`Copy this link: ${link}`);
    }
  };
  return (
    <div className="activity-copy">
      <button type="button" className="button button-secondary" onClick={() => void copy()}>
        Copy link to this moment
      </button>
      <span className="small muted activity-copy-status" role="status">
        {status}
      </span>
    </div>
  );
}

/** The pages the visitor went through, in order, each a jump to its arrival. */
const pagesVisited = (items: ActivityItem[]) => items.filter((item) => item.kind === 'navigation').map((item) => ({ at: item.at, text: item.detail ?? '' }));

function CapturedList({ title, entries, onSeek }: { title: string; entries: { at: number; text: string }[]; onSeek(ms: number): void }) {
  return (
    <>
      <h2 className="activity-heading">{title}</h2>
      {entries.length ? (
        <ol className="activity-list">
          {entries.map((entry, i) => (
            <li key={i}>
              <button type="button" className="activity-jump" onClick={() => onSeek(entry.at)}>
                <span className="activity-time">{formatPlayerTime(entry.at)}</span> <span className="mono small">{entry.text}</span>
              </button>
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted small">Nothing captured.</p>
      )}
    </>
  );
}

/** The recording's activity and the replay's notes, in time order. */
export const useActivityItems = (events: ReplayEvent[], notes?: readonly { text: string; timestamp: number }[]) =>
  useMemo(() => {
    const items = activityItems(events);
    return notes?.length ? [...items, ...noteItems(notes, events)].sort((a, b) => a.at - b.at) : items;
  }, [events, notes]);
