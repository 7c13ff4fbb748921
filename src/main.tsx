import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { queryClient } from './api/queryClient.js';
import { router } from './router.js';
import { wireAuth } from './auth/wiring.js';
import { setUpOffline } from './offline/setup.js';
import { OfflineLayer } from './offline/OfflineLayer.js';
import { UpdatePrompt } from './offline/UpdatePrompt.js';
import { replayIdsFromPagePath } from './lib/replayUrls.js';
import { warmReplayPage } from './screens/warmReplayPage.js';
import './styles.css';

// A replay page opened from its URL loads its code now, beside the sign-in check, not after it.
// (Starting the events' download here too was measured slower: see warmReplayPage.)
if (replayIdsFromPagePath(window.location.pathname)) warmReplayPage();
// The offline layer first: it decides how a failed auth check is treated, and the first screen
// renders from the restored query cache (persisted in IndexedDB) when there is no network.
const offlineReady = setUpOffline(queryClient);
wireAuth();

void offlineReady.then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <OfflineLayer />
        <UpdatePrompt />
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  ),
);
