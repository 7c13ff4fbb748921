import { createFileRoute } from '@tanstack/react-router';
import { AcceptInvite } from '../screens/AcceptInvite.js';

// An invite's link ({PUBLIC_URL}/invite/{token}): signs the person in when needed, then accepts.
export const Route = createFileRoute('/invite/$token')({
  component: InviteRoute,
});

function InviteRoute() {
  return <AcceptInvite token={Route.useParams().token} />;
}
