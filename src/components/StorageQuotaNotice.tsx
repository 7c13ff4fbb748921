import type { StorageUse } from '../../common/api-types.js';
import { formatBytes } from '../lib/format.js';
import { ErrorBox } from './ErrorBox.js';

export const STORAGE_QUOTA_TITLE = 'Storage quota reached';

/** Why new sessions stop being recorded, in the owner's words. */
export const storageQuotaMessage = ({ usedBytes, quotaBytes }: StorageUse) =>
  `This campaign's recordings use ${formatBytes(usedBytes)} of its ${formatBytes(quotaBytes)} storage quota, so new sessions are not recorded. ` +
  'Sessions already in progress finish. Delete sessions or keep recordings for fewer days to make room.';

/** Shown on the campaign's sessions page while the server refuses its new sessions (STORAGE_QUOTA_MB). */
export function StorageQuotaNotice({ storage }: { storage: StorageUse | undefined }) {
  if (!storage?.full) return null;
  return <ErrorBox title={STORAGE_QUOTA_TITLE} message={storageQuotaMessage(storage)} />;
}
