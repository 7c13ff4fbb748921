import { createFileRoute } from '@tanstack/react-router';
import { SharedReplay } from '../components/replay/SharedReplay.js';
import { momentParam } from '../components/replay/moment.js';

// A replay someone shared: public, no sign-in, only that replay.
export const Route = createFileRoute('/shared/$token')({
  // ?t=<seconds>: the moment the link points at (an issue made from a replay carries it).
  validateSearch: (search: Record<string, unknown>): { t?: number } => ({ t: momentParam(search.t) }),
  component: SharedPage,
});

function SharedPage() {
  const { token } = Route.useParams();
  const { t } = Route.useSearch();
  return <SharedReplay token={token} startAtSeconds={t} />;
}
