import { EventType } from '@rrweb/types';

export { hasHumanInput } from '../../common/session-facts.js';

// Facts about a batch that only its events tell, derived where the batch is parsed.

interface EventLike {
  type: number;
  data: unknown;
}

/** Full snapshots: one per page load. */
export const pageLoads = (events: EventLike[]) => events.filter((e) => e.type === EventType.FullSnapshot).length;
