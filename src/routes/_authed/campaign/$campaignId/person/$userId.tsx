import { createFileRoute, type ErrorComponentProps } from '@tanstack/react-router';
import { personQueryOptions } from '../../../../../api/people.js';
import { Person, PersonError, PersonPending } from '../../../../../screens/Person.js';

export const Route = createFileRoute('/_authed/campaign/$campaignId/person/$userId')({
  // The cached copy answers at once (offline: the persisted one); a load that fails shows errorComponent.
  loader: async ({ context, params }) => {
    await context.queryClient.ensureQueryData(personQueryOptions(params.campaignId, params.userId));
  },
  pendingComponent: PersonPendingRoute,
  pendingMs: 0,
  pendingMinMs: 0,
  component: PersonRoute,
  errorComponent: PersonErrorRoute,
});

function PersonRoute() {
  return <Person {...Route.useParams()} />;
}

function PersonPendingRoute() {
  return <PersonPending {...Route.useParams()} />;
}

function PersonErrorRoute({ error }: ErrorComponentProps) {
  return <PersonError {...Route.useParams()} error={error} />;
}
