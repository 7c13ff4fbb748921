// The one bounded keep now lives in common/ (the PWA uses it too). This re-export stays only for
// ingest's write path (known-sessions.ts), which is being moved into server/recordings/: drop it then.
export { RecentlyUsed } from '../common/recently-used.js';
