// What a session's first batch says about the visitor's browser (common/api-types.ts SessionInfo).
import type { SessionInfo } from '../../common/api-types.js';
import { pageUrl, withoutQuery } from '../../common/scrub.js';
import type { TrackerRules } from '../../common/recording-rules.js';
import { utmOf } from '../../common/utm.js';

// Read as the recorder loads: a single-page app may drop them from the address before the first batch.
const utm = utmOf(location.search);

export function sessionInfo(rules: TrackerRules): SessionInfo {
  const n = navigator;
  return {
    userAgent: n.userAgent,
    language: n.language,
    timezone: '', // filled in where the batch is packed, off the main thread (pack.ts)
    hardwareConcurrency: n.hardwareConcurrency || 0,
    webdriver: n.webdriver === true,
    cookiesEnabled: n.cookieEnabled,
    hasFocus: document.hasFocus(),
    // The card shows "fullscreen" or "windowed": whether the page is in full screen now.
    fullScreenEnabled: !!document.fullscreenElement,
    screenWidth: screen.width,
    screenHeight: screen.height,
    referrer: withoutQuery(document.referrer),
    url: pageUrl(location.href, rules.query),
    ...utm,
  };
}
