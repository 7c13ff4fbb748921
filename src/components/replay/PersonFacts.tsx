import { useMemo } from 'react';
import { Link } from '@tanstack/react-router';
import type { ReplayEvent } from '../../../common/api-types.js';
import type { PeopleFacts } from '../../../common/people.js';
import { sessionFacts } from '../../../common/session-facts.js';
import { DetailsList } from '../DetailsList.js';

// What the site told of the visitor with tapedeck.identify, .tag and .event: read from the
// recording itself by the session facts' rules, so a saved replay and an opened file show it too.

const rows = (record: Record<string, unknown>): [string, string][] => Object.entries(record).map(([key, value]) => [key, String(value)]);

/** Traits, tags and events with their counts (nothing for an empty one). */
export function PeopleFactsList({ facts }: { facts: Pick<PeopleFacts, 'traits' | 'tags' | 'events'> }) {
  const parts: [string, Record<string, unknown>][] = [
    ['Traits', facts.traits],
    ['Tags', facts.tags],
    ['Events', facts.events],
  ];
  return (
    <>
      {parts.map(([title, record]) =>
        Object.keys(record).length ? (
          <div key={title} className="people-facts" data-testid={`people-${title.toLowerCase()}`}>
            <h3>{title}</h3>
            <DetailsList rows={rows(record)} />
          </div>
        ) : null,
      )}
    </>
  );
}

/** The replay page's person: the id (with the person's page one click away), traits, tags and events. */
export function PersonFacts({ campaignId, events, linked = true }: { campaignId: string; events: ReplayEvent[]; linked?: boolean }) {
  const facts = useMemo(() => sessionFacts(events).facts, [events]);
  const told = facts.userId || Object.keys(facts.traits).length || Object.keys(facts.tags).length || Object.keys(facts.events).length;
  if (!told) return null;
  return (
    <section className="card person-facts" aria-labelledby="person-title">
      <h2 id="person-title">Person</h2>
      {facts.userId && (
        <p>
          User: <span className="mono break">{facts.userId}</span>
          {linked && campaignId && (
            <>
              {' '}
              <Link to="/campaign/$campaignId/person/$userId" params={{ campaignId, userId: facts.userId }}>
                All sessions of this person
              </Link>
            </>
          )}
        </p>
      )}
      <PeopleFactsList facts={facts} />
    </section>
  );
}
