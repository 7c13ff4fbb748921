// The visitor's consent, as the page gives it with tapedeck.consent(granted). A placeholder:
// the recording rules (consent modes) decide what it changes; until then it changes nothing.
export function grantConsent(granted: boolean): void {
  void granted;
}
