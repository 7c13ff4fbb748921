export { useAuth, logout, onLogout, signedIn, signedOut, ensureSignedInUser, meQueryOptions, ME_QUERY_KEY, type AuthState } from './session.js';
