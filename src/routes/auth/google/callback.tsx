import { createFileRoute } from '@tanstack/react-router';
import { AuthCallback } from '../../../screens/AuthCallback.js';
import { searchText } from '../../../lib/sessionFilters.js';
import { CALLBACK_MAX_CHARS } from '../../../../common/sign-in.js';

interface CallbackSearch {
  code?: string;
  state?: string;
}

/** The callback page's validateSearch: the provider's code and state, within what the server takes (else none). */
const validateCallbackSearch = (search: Record<string, unknown>): CallbackSearch => ({
  code: bounded(search.code, CALLBACK_MAX_CHARS.code),
  state: bounded(search.state, CALLBACK_MAX_CHARS.state),
});

// Too long is dropped, not cut: a cut code or state would only fail at the server.
const bounded = (value: unknown, max: number) => {
  const text = searchText(value, max + 1);
  return text && text.length <= max ? text : undefined;
};

export const Route = createFileRoute('/auth/google/callback')({
  validateSearch: validateCallbackSearch,
  component: CallbackRoute,
});

function CallbackRoute() {
  const { code, state } = Route.useSearch();
  return <AuthCallback code={code} state={state} />;
}
