import { createFileRoute } from '@tanstack/react-router';
import { Privacy } from '../screens/Legal.js';

export const Route = createFileRoute('/privacy')({
  component: Privacy,
});
