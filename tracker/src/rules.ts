// The campaign's recording rules turned into rrweb's options: what is masked and what is never
// recorded (common/recording-rules.ts). Written tightly: every byte counts against the tracker's weight.
import { ALWAYS_BLOCKED, type TrackerRules } from '../../common/recording-rules.js';
import { maskText } from '../../common/scrub.js';

/** Elements whose text is masked whole on any campaign (rrweb's .rr-mask too). */
const MASKED = '.tapedeck-mask,.td-mask,.rr-mask';
/** Text maskText could change (a digit, an at sign or a percent-encoding, a URL): most page text has none, and skips it. */
const MASKABLE = /[0-9０-９@＠%]|:\/\//;
/** What the strict preset shows as same-size placeholders: anything that shows a picture. */
const PICTURES = ',img,picture,video,canvas,svg,iframe,object,embed,input[type=image]';

/**
 * rrweb's masking and blocking for the rules; null when the campaign's selector is not one this
 * browser reads (nothing is then recorded rather than what it was meant to hide).
 */
/** Whether a clicked element's text may not leave the page (heat.ts): all of it under strict, else blocked or masked text. */
export const textHidden = (rules: TrackerRules, blockSelector: string) => (el: Element) =>
  rules.privacy === 'strict' || !!el.closest(blockSelector + ',' + MASKED);

export function recordRules(rules: TrackerRules) {
  const strict = rules.privacy === 'strict';
  const blockSelector = ALWAYS_BLOCKED + (strict ? PICTURES : '') + (rules.block ? ',' + rules.block : '');
  try {
    document.querySelector(blockSelector);
  } catch {
    return null;
  }
  return {
    blockSelector,
    // Relaxed: only text the site marked; otherwise every text passes maskTextFn.
    maskTextSelector: rules.privacy === 'relaxed' ? MASKED : '*',
    // Strict and marked text: every character but spaces; balanced: e-mails and long numbers.
    maskTextFn: (text: string, element: HTMLElement | null) =>
      strict || element?.closest(MASKED) ? text.replace(/\S/g, '*') : MASKABLE.test(text) ? maskText(text) : text,
  };
}
