import { LIMIT_MAX, LIMIT_MIN, type CampaignForm } from '../lib/createForm.js';

// Every campaign form field's label and help text (CampaignForm.tsx and RecordingRulesFields.tsx lay
// the fields out), the short ones first.

export const FIELD_TEXTS: Record<keyof CampaignForm, readonly [label: string, help: string]> = {
  name: ['Campaign Name', 'A name to recognise this campaign, e.g. “Spring landing page”.'],
  domains: ['Domain to Accept Traffic From', 'Comma-separated list, e.g. example.com, localhost:3000. Sessions from other sites are refused.'],
  limit: ['Session Limit', `How many sessions to record, from ${LIMIT_MIN} to ${LIMIT_MAX} (0: no limit).`],
  startDate: ['Start Date', 'Recording starts at this date and time (your local time).'],
  endDate: ['End Date', 'Recording stops after this date and time.'],
  retentionDays: ['Keep Recordings', 'Recordings older than this are deleted.'],
  ipMode: ['Visitor IP Address', "What is stored of each visitor's address; the country is looked up either way."],
  sampleRate: ['Sessions Recorded (%)', 'The share of visits recorded, 1 to 100. A visit is recorded whole or not at all.'],
  urlInclude: ['Record Only These Pages', 'Paths, one a line, e.g. /checkout/* (* matches anything). Empty: every page.'],
  urlExclude: ['Never Record These Pages', 'Paths, one a line, e.g. /account/*. Recording pauses while the visitor is there.'],
  minDurationSeconds: ['Shortest Session Kept (seconds)', 'Shorter sessions are deleted once they have ended (0: every session is kept).'],
  consent: ['Visitor Consent', 'Required: nothing is recorded or sent until your site calls tapedeck.consent(true).'],
  maskedParams: ['Masked Parameters', 'Comma-separated parameter names whose values are replaced by * when query strings are kept, whatever their case.'],
  captureConsole: [
    'Capture console messages',
    'console.error and console.warn calls on the site, with e-mails and long numbers masked. Errors and failed requests are always captured.',
  ],
  privacy: [
    'Privacy',
    "Masked before anything leaves the visitor's browser: relaxed, what they type; balanced, also e-mails and long numbers on the page; strict, all text and images.",
  ],
  blockSelector: [
    'Elements Never Recorded',
    'A CSS selector, e.g. .price, #account. They show as empty boxes of the same size; elements with the class td-block or a data-td-block attribute are never recorded either.',
  ],
  consentBufferSeconds: [
    'Seconds Held Before Consent',
    "With consent required: the last seconds kept in the browser's memory only, sent if the visitor agrees, dropped if they refuse or leave (0: none).",
  ],
  keepQuery: [
    'Keep query strings in page addresses',
    "Off: recordings keep each page's path only (/search). On: also its query string (/search?q=shoes), with the values of the parameters below masked. Fragments (#…) are never kept, and share links without session details show paths only.",
  ],
};
