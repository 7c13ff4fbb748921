import { pageRecorded } from '../../common/recording-rules.js';
import { pathOf } from '../../common/session-facts.js';

interface EventLike {
  type: number;
  data: unknown;
}

/**
 * The events of a batch that belong to pages the campaign records: from a page's Meta event
 * (rrweb's 4) on a page its patterns leave out, up to the next Meta event of a recorded one,
 * events are dropped. Events before the batch's first Meta event belong to the page the tracker
 * was already on, which it recorded.
 */
export function onRecordedPages<T extends EventLike>(events: T[], include: string[], exclude: string[]): T[] {
  if (!include.length && !exclude.length) return events;
  let recorded = true;
  return events.filter((event) => {
    const href = (event.data as { href?: unknown }).href;
    if (event.type === 4 && typeof href === 'string') recorded = pageRecorded(pathOf(href), { include, exclude });
    return recorded;
  });
}
