import { useRegisterSW } from 'virtual:pwa-register/react';

// Registers the service worker (vite-plugin-pwa, prompt mode) and offers a waiting new version.
// Nothing reloads on its own — a replay may be playing: only the tab whose user pressed
// 'Reload to update' reloads, once the new worker controls it.

const UPDATE_CHECK_MS = 60 * 60 * 1000;

export function UpdatePrompt() {
  const {
    needRefresh: [waiting, setWaiting],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      // Installed apps stay open for days: look for a new version now and then.
      if (registration) setInterval(() => void registration.update().catch(() => undefined), UPDATE_CHECK_MS);
    },
    // Registration can be refused (blocked by policy, some private modes): the app still works
    // online, only without its offline library.
    onRegisterError: (error: unknown) => console.warn('Service worker not registered; offline replays are unavailable.', error),
    // Another tab accepting the update must not reload this one (see accept below).
    onNeedReload: () => undefined,
  });
  if (!waiting) return null;
  const accept = () => {
    // Reload once the new worker controls this page; on a first visit the plugin's own reload
    // would not fire (its "is update" flag is set only when a worker already controlled the page).
    navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
    void updateServiceWorker(true);
  };
  return (
    <div className="update-prompt" role="dialog" aria-live="polite" aria-label="Update available">
      <p>A new version of Tapedeck is ready.</p>
      <div className="actions">
        <button type="button" className="button button-primary button-small" onClick={accept}>
          Reload to update
        </button>
        <button type="button" className="button button-secondary button-small" onClick={() => setWaiting(false)}>
          Later
        </button>
      </div>
    </div>
  );
}
