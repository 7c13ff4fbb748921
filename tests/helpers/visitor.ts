// The visitor's browser as the tests describe it, both as the tracker sends it (a batch's info)
// and as a stored session shows it: one desktop in London.
export const VISITOR_BROWSER = {
  language: 'en-GB',
  timezone: 'Europe/London',
  hardwareConcurrency: 8,
  webdriver: false,
  cookiesEnabled: true,
  hasFocus: true,
  fullScreenEnabled: false,
} as const;
