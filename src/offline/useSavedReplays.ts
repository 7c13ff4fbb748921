import { useCallback, useEffect, useState } from 'react';
import type { SavedReplay } from './db.js';
import { getSavedReplay, listSavedReplays } from './replayStore.js';
import { onOfflineChange } from './channel.js';

/** The device's saved replays, kept current as the worker or another tab changes them. */
export function useSavedReplays(): { replays: SavedReplay[] | null; reload: () => void } {
  const [replays, setReplays] = useState<SavedReplay[] | null>(null);
  const reload = useCallback(() => {
    listSavedReplays()
      .then(setReplays)
      .catch(() => setReplays([]));
  }, []);
  useEffect(() => {
    reload();
    return onOfflineChange((change) => {
      if (change.type !== 'quota') reload();
    });
  }, [reload]);
  return { replays, reload };
}

/** One replay's saved state (undefined while looking, null when not on the device). */
export function useSavedReplay(campaignId: string, sessionId: string): SavedReplay | null | undefined {
  const [replay, setReplay] = useState<SavedReplay | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    const look = () =>
      void getSavedReplay(campaignId, sessionId)
        .then((found) => live && setReplay(found ?? null))
        .catch(() => live && setReplay(null));
    look();
    const stop = onOfflineChange((change) => {
      if (change.type !== 'quota') look();
    });
    return () => {
      live = false;
      stop();
    };
  }, [campaignId, sessionId]);
  return replay;
}
