import { createFileRoute } from '@tanstack/react-router';
import { SavedReplays } from '../offline/SavedReplays.js';

// Saved replays: what this device keeps for offline viewing. It reads only the
// device's own storage, so it opens offline and needs no sign-in check; logout empties it.
export const Route = createFileRoute('/saved')({
  component: SavedReplays,
});
