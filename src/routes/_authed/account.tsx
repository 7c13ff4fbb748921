import { createFileRoute } from '@tanstack/react-router';
import { Account } from '../../screens/Account.js';

// No loader: the page's calls stay in its own lazily loaded chunk, out of the first load.
export const Route = createFileRoute('/_authed/account')({
  component: Account,
});
