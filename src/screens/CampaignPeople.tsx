import '../components/people.css';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { peopleQueryOptions } from '../api/people.js';
import { createErrorMessage } from '../api/campaigns.js';
import type { PersonSummary } from '../../common/api/people.js';
import { CampaignTabs } from '../components/CampaignTabs.js';
import { InsightsHeader } from '../components/insights/InsightsHeader.js';
import { DeviceIcon } from '../components/DeviceIcon.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { LoadMore } from '../components/LoadMore.js';
import { Spinner } from '../components/Spinner.js';
import { useTypedText } from '../components/SessionFilterBar.js';
import { formatDateTime } from '../lib/format.js';

// The campaign's people directory (issue 36 item 9): everyone its site identified
// (tapedeck.identify), searched by the start of their id or by a trait, each opening their page.

/** A search applies once typing pauses this long, as the sessions list's does. */
const TYPING_PAUSE_MS = 400;
/** Traits shown on a person's line; their page has them all. */
const TRAITS_SHOWN = 4;

interface Props {
  campaignId: string;
  q: string;
  onSearch: (q: string) => void;
}

export function CampaignPeople({ campaignId, q, onSearch }: Props) {
  const search = useTypedText(q, onSearch, TYPING_PAUSE_MS);
  const people = useInfiniteQuery({ ...peopleQueryOptions(campaignId, q), placeholderData: keepPreviousData });
  const list = people.data?.pages.flatMap((page) => page.people) ?? [];
  return (
    <div className="page people-page">
      <InsightsHeader campaignId={campaignId} title="People" />
      <CampaignTabs campaignId={campaignId} current="people" />
      <div className="toolbar">
        <label className="visually-hidden" htmlFor="people-search">
          Search people
        </label>
        <input
          id="people-search"
          type="search"
          className="input"
          placeholder="User id, or a trait: plan=pro"
          value={search.text}
          onChange={(e) => search.setText(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && search.apply()}
        />
      </div>
      {people.isError && <ErrorBox title="Error loading people" message={createErrorMessage(people.error, 'Failed to fetch people')} />}
      {people.isPending ? (
        <Spinner label="Loading people..." />
      ) : list.length === 0 && !people.isError ? (
        <div className="empty-state">
          <h2>No people found</h2>
          <p className="muted">{q.trim() ? 'Try another id or trait.' : 'People appear here once your site identifies its visitors with tapedeck.identify.'}</p>
        </div>
      ) : (
        <>
          <ul className="session-grid" aria-label="People">
            {list.map((person) => (
              <PersonLine key={person.userId} campaignId={campaignId} person={person} />
            ))}
          </ul>
          {people.hasNextPage && <LoadMore loading={people.isFetchingNextPage} onLoad={() => void people.fetchNextPage()} />}
        </>
      )}
    </div>
  );
}

const plural = (count: number, one: string) => `${count.toLocaleString('en-US')} ${one}${count === 1 ? '' : 's'}`;
const traitText = ([key, value]: [string, unknown]) => `${key}=${String(value)}`;

/** One person: their id opening their page; when first and last seen, how often, on what, and a few traits. */
function PersonLine({ campaignId, person }: { campaignId: string; person: PersonSummary }) {
  const traits = Object.entries(person.traits);
  return (
    <li className="card session-card person-line" data-testid="person-line">
      <h2 className="person-line-id ellipsis">
        <Link to="/campaign/$campaignId/person/$userId" params={{ campaignId, userId: person.userId }} title={person.userId}>
          {person.userId}
        </Link>
      </h2>
      <dl className="session-facts">
        <div>
          <dt>First seen</dt>
          <dd>{formatDateTime(person.firstSeen)}</dd>
        </div>
        <div>
          <dt>Last seen</dt>
          <dd>{formatDateTime(person.lastSeen)}</dd>
        </div>
        <div>
          <dt>Sessions</dt>
          <dd>{plural(person.sessions, 'session')}</dd>
        </div>
        <div>
          <dt>Devices</dt>
          <dd className="person-devices">
            {person.devices.length
              ? person.devices.map((device) => (
                  <span key={device}>
                    <DeviceIcon device={device} /> {device}
                  </span>
                ))
              : 'Unknown'}
          </dd>
        </div>
      </dl>
      {traits.length > 0 && (
        <ul className="chips" aria-label="Traits">
          {traits.slice(0, TRAITS_SHOWN).map((trait) => (
            <li key={trait[0]} className="chip ellipsis" title={traitText(trait)}>
              {traitText(trait)}
            </li>
          ))}
          {traits.length > TRAITS_SHOWN && <li className="chip">+{traits.length - TRAITS_SHOWN} more</li>}
        </ul>
      )}
    </li>
  );
}
