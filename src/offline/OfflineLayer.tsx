import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useOnline } from './useOnline.js';
import { newestDataAt } from './queryPersister.js';
import { timeAgo } from './timeAgo.js';
import { onOfflineChange } from './channel.js';
import './offline.css';

export function offlineBannerText(savedAt: number | null, now = Date.now()): string {
  return savedAt ? `You're offline — showing data saved ${timeAgo(savedAt, now)}` : "You're offline — showing data saved on this device";
}

/** "You're offline — showing data saved {time ago}" while the network is gone. */
export function OfflineBanner() {
  return useOnline() ? null : <OfflineNotice />;
}

/** Mounted when the network goes, so its clock starts then; it ticks to keep "time ago" current. */
function OfflineNotice() {
  const queryClient = useQueryClient();
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  const savedAt = newestDataAt(queryClient.getQueryCache().getAll());
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      {offlineBannerText(savedAt, now)}
    </div>
  );
}

/** Storage-full messages from the worker or a background save, shown instead of crashing. */
export function QuotaMessage() {
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => onOfflineChange((change) => change.type === 'quota' && setMessage(change.message)), []);
  if (!message) return null;
  return (
    <div className="quota-message" role="alert">
      <span>{message}</span>
      <button type="button" className="button button-secondary button-small" onClick={() => setMessage(null)}>
        Dismiss
      </button>
    </div>
  );
}

/** Everything the offline layer shows on every page. */
export function OfflineLayer() {
  return (
    <>
      <OfflineBanner />
      <QuotaMessage />
    </>
  );
}
