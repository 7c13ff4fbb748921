import { createFileRoute } from '@tanstack/react-router';
import { Terms } from '../screens/Legal.js';

export const Route = createFileRoute('/terms')({
  component: Terms,
});
