import { EventType, IncrementalSource } from '@rrweb/types';

// Facts about a batch that only its events tell, derived where the batch is parsed.

interface EventLike {
  type: number;
  data: unknown;
}

/** rrweb incremental sources only a person produces. */
const HUMAN_SOURCES = new Set<number>([IncrementalSource.MouseMove, IncrementalSource.MouseInteraction, IncrementalSource.TouchMove, IncrementalSource.Drag]);

export function hasHumanInput(events: EventLike[]): boolean {
  return events.some((e) => e.type === EventType.IncrementalSnapshot && HUMAN_SOURCES.has((e.data as { source?: number }).source ?? -1));
}

/** Full snapshots: one per page load. */
export const pageLoads = (events: EventLike[]) => events.filter((e) => e.type === EventType.FullSnapshot).length;
