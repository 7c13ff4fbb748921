import { createFileRoute } from '@tanstack/react-router';
import { SharedReplay } from '../components/replay/SharedReplay.js';

// A replay someone shared: public, no sign-in, only that replay.
export const Route = createFileRoute('/shared/$token')({
  component: SharedPage,
});

function SharedPage() {
  const { token } = Route.useParams();
  return <SharedReplay token={token} />;
}
