import { createFileRoute } from '@tanstack/react-router';
import { validateLandingSearch } from '../auth/returnTo.js';
import { Landing } from '../screens/Landing.js';

export const Route = createFileRoute('/')({
  validateSearch: validateLandingSearch,
  component: Landing,
});
