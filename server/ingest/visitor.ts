import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Reader, type Response } from 'mmdb-lib';
import type { SessionInfo } from '../../common/api-types.js';
import { softwareOf } from '../../common/user-agent.js';
import type { Visitor } from '../recordings/rules.js';

// What the server derives about a session's visitor from its first batch: the address's country
// (offline database, never a third-party call) and the browser's name. How much of the address a
// campaign stores is recordings' rule (session-rows.ts storedIp); the bot verdict is verdict.ts's.

const require = createRequire(import.meta.url);
const COUNTRY_DB = '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb';
const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

let countries: Reader<Response> | null | undefined;

/** Loaded once per process, on the first lookup (the file is about 8 MB). */
function countryReader(): Reader<Response> | null {
  if (countries === undefined) {
    try {
      countries = new Reader<Response>(fs.readFileSync(require.resolve(COUNTRY_DB)));
    } catch {
      countries = null;
    }
  }
  return countries;
}

/** ISO 3166 code ("US"), or null for private, local and unknown addresses. */
function countryCodeOf(ip: string): string | null {
  try {
    // This database's records are {country_code}, not MaxMind's shape.
    const code = (countryReader()?.get(ip) as { country_code?: string } | null)?.country_code;
    return code ? code.toUpperCase() : null;
  } catch {
    return null;
  }
}

/** English name of a country code ("United States"). */
const countryName = (code: string): string => regionNames.of(code) ?? code;

/** The browser's name without its version, lower-case ("chrome"): what the browser filter takes. */
const browserName = (browser: string | null): string | null => (browser ? browser.replace(/[\d.\s]+$/, '').toLowerCase() || null : null);

/** The visitor of a session's first batch (the one with its info); later batches have none. */
export function visitorOf(ip: string, info: SessionInfo | null): Visitor | null {
  if (!info) return null;
  // The country comes from the full address, whatever the campaign stores of it.
  const countryCode = countryCodeOf(ip);
  return { ip, countryCode, country: countryCode ? countryName(countryCode) : null, browserName: browserName(softwareOf(info.userAgent).browser) };
}
