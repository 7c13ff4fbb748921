// The visitor's answer to the site's consent question, for campaigns that record only with it:
// the page API (tapedeck.consent) calls grantConsent; the answer holds for the tab.
const KEY = 'tapedeck:consent';
let answer: boolean | undefined;
let heard: ((granted: boolean) => void) | undefined;

/** The tab's answer so far: true, false, or undefined while the site has not said. */
export function consentAnswer(): boolean | undefined {
  try {
    const saved = sessionStorage.getItem(KEY);
    if (saved) answer = saved === '1';
  } catch {
    // storage blocked: the answer holds for this page
  }
  return answer;
}

/** The visitor said yes (recording starts, with what was held in memory) or no (nothing is kept). */
export function grantConsent(granted: boolean): void {
  answer = granted;
  try {
    sessionStorage.setItem(KEY, granted ? '1' : '0');
  } catch {
    // storage blocked: the answer holds for this page
  }
  heard?.(granted);
}

/** The recorder's ear for the answer. */
export const onConsent = (run: (granted: boolean) => void) => {
  heard = run;
};
