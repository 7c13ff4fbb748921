import { grantConsent } from './consent.js';

/** tapedeck.consent(granted) on the page's global; anything but true counts as no. */
export function exposeConsent(settings: { consent?: (granted: unknown) => void }): void {
  settings.consent = (granted) => grantConsent(granted === true);
}
