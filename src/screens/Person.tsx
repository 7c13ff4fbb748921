import { campaignDataChanged } from '../api/campaignData.js';
import '../components/people.css';
import { useId, useState, type ReactNode } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { erasePerson, personExportUrl, personKey, personQueryOptions } from '../api/people.js';
import { createErrorMessage } from '../api/campaigns.js';
import { ConfirmDeleteModal, SessionDetailsModal } from '../components/SessionModals.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { RoleNote } from '../components/RoleNote.js';
import { useCampaignPermissions } from '../lib/permissions.js';
import { SessionCard } from '../components/SessionCard.js';
import { formatDateTime } from '../lib/format.js';
import { PeopleFactsList } from '../components/replay/PersonFacts.js';
import type { Session } from '../../common/api-types.js';
import type { Person as PersonData } from '../../common/api/people.js';

// A person: the sessions a site identified by one id (tapedeck.identify), what they told, their
// data as a file (a data-subject access export), and their erasure, confirmed by typing the id.

interface Props {
  campaignId: string;
  userId: string;
}

/** The person's page: its route's loader has the person in the cache first. */
export function Person({ campaignId, userId }: Props) {
  const { data: person } = useSuspenseQuery(personQueryOptions(campaignId, userId));
  const [erasing, setErasing] = useState(false);
  const [typed, setTyped] = useState('');
  const [details, setDetails] = useState<Session | null>(null);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const cantErase = useCampaignPermissions(campaignId).refusal('data.erase');
  const noteId = useId();
  const erase = useMutation({
    mutationFn: () => erasePerson(campaignId, userId),
    onSuccess: async () => {
      setErasing(false);
      await navigate({ to: '/campaign/$campaignId', params: { campaignId } });
      // Gone from the cache once its page is left (on the page, it would be fetched again).
      queryClient.removeQueries({ queryKey: personKey(campaignId, userId) });
      await campaignDataChanged(queryClient, campaignId);
    },
  });

  return (
    <PersonPage campaignId={campaignId} userId={userId}>
      <div className="actions">
        <a className="button button-secondary" href={personExportUrl(campaignId, userId)} download>
          Download data (JSON)
        </a>
        <button
          type="button"
          className="button button-danger"
          disabled={Boolean(cantErase)}
          aria-describedby={cantErase ? noteId : undefined}
          onClick={() => setErasing(true)}
        >
          Erase this person
        </button>
      </div>
      <RoleNote id={noteId} reason={cantErase} />
      {erase.isError && <ErrorBox title="Error" message={createErrorMessage(erase.error, 'Failed to erase this person')} />}
      <PersonSeen person={person} />
      <section className="card" aria-labelledby="person-told">
        <h2 id="person-told">What the site told</h2>
        <PeopleFactsList facts={person} />
      </section>
      <section className="card" aria-labelledby="person-sessions">
        <h2 id="person-sessions">
          Sessions ({person.sessions.length}
          {person.truncated ? '+' : ''})
        </h2>
        {/* Titled as the sessions list titles them: who, where, what (issue 36 item 4). */}
        <ul className="session-grid person-sessions">
          {person.sessions.map((session) => (
            <SessionCard key={session.sessionId} campaignId={campaignId} session={session} onDetails={setDetails} />
          ))}
        </ul>
      </section>
      {details && <SessionDetailsModal session={details} onClose={() => setDetails(null)} />}
      {erasing && (
        <ConfirmDeleteModal
          title="Erase this person?"
          confirmLabel="Erase"
          deleting={erase.isPending}
          ready={typed === userId}
          onCancel={() => setErasing(false)}
          onConfirm={() => erase.mutate()}
        >
          <p className="warning">This action cannot be undone. Every session of this person is erased: recordings, notes and stars.</p>
          <label htmlFor="erase-confirm">Type the user id to confirm</label>
          <input id="erase-confirm" className="input mono" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />
        </ConfirmDeleteModal>
      )}
    </PersonPage>
  );
}

/** When the person was first and last seen and on which devices, from their sessions (newest first). */
function PersonSeen({ person }: { person: PersonData }) {
  const oldest = person.sessions[person.sessions.length - 1];
  const devices = [...new Set(person.sessions.map((session) => session.device).filter(Boolean))];
  return (
    <dl className="session-facts person-seen">
      <div>
        <dt>First seen</dt>
        <dd>
          {formatDateTime(oldest.startedAt)}
          {person.truncated ? ' (or before)' : ''}
        </dd>
      </div>
      <div>
        <dt>Last seen</dt>
        <dd>{formatDateTime(Math.max(...person.sessions.map((session) => session.lastActivityAt)))}</dd>
      </div>
      <div>
        <dt>Devices</dt>
        <dd>{devices.join(', ') || 'Unknown'}</dd>
      </div>
    </dl>
  );
}

/** While the route's loader waits for the person. */
export function PersonPending(props: Props) {
  return (
    <PersonPage {...props}>
      <p className="loading-text" role="status">
        <span className="spinner" aria-hidden="true" /> Loading...
      </p>
    </PersonPage>
  );
}

/** The route's errorComponent: the page with the load's error. */
export function PersonError({ error, ...props }: Props & { error: unknown }) {
  return (
    <PersonPage {...props}>
      <ErrorBox title="Error" message={createErrorMessage(error, 'Failed to load this person')} />
    </PersonPage>
  );
}

function PersonPage({ campaignId, userId, children }: Props & { children: ReactNode }) {
  return (
    <div className="page person-page">
      <div className="replay-title-row">
        <h1>Person</h1>
        <Link to="/campaign/$campaignId" params={{ campaignId }} className="button button-secondary">
          Back to Campaign
        </Link>
      </div>
      <p className="mono break" data-testid="person-id">
        {userId}
      </p>
      {children}
    </div>
  );
}
