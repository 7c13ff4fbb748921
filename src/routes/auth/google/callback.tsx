import { createFileRoute } from '@tanstack/react-router';
import { AuthCallback } from '../../../screens/AuthCallback.js';

interface CallbackSearch {
  code?: string;
  state?: string;
}

// The router parses search values as JSON, so an all-digit value may arrive as a number.
const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) || undefined : undefined);

export const Route = createFileRoute('/auth/google/callback')({
  validateSearch: (search: Record<string, unknown>): CallbackSearch => ({ code: text(search.code), state: text(search.state) }),
  component: CallbackRoute,
});

function CallbackRoute() {
  const { code, state } = Route.useSearch();
  return <AuthCallback code={code} state={state} />;
}
