import fs from 'node:fs';
import { isIP } from 'node:net';
import { createRequire } from 'node:module';
import { Reader, type Response } from 'mmdb-lib';

// What the server derives about a visitor's address: the address as stored and its country
// (offline database, never a third-party call). The bot verdict is server/recordings/verdict.ts's.

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

/** The address as a campaign stores it: as seen, with its host part zeroed, or not at all. */
export function storedIp(ip: string, mode: string): string | null {
  if (mode === 'none') return null;
  if (mode === 'full') return ip;
  return truncatedIp(ip);
}

/** IPv4 with its last octet zeroed, IPv6 with its last 80 bits zeroed (the first 48 kept). */
export function truncatedIp(ip: string): string | null {
  if (isIP(ip) === 4) return ip.replace(/\.\d+$/, '.0');
  if (isIP(ip) !== 6) return null;
  const groups = ipv6Groups(ip);
  return groups ? `${groups.slice(0, 3).map((g) => g.toString(16)).join(':')}::` : null;
}

/** The eight 16-bit groups of an IPv6 address (a zone index dropped, an embedded IPv4 tail read). */
function ipv6Groups(ip: string): number[] | null {
  let text = ip.replace(/%.*$/, '');
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    text = text.slice(0, v4.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const front = part(head);
  const back = part(tail);
  const groups = tail === undefined ? front : [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** ISO 3166 code ("US"), or null for private, local and unknown addresses. */
export function countryCodeOf(ip: string): string | null {
  try {
    // This database's records are {country_code}, not MaxMind's shape.
    const code = (countryReader()?.get(ip) as { country_code?: string } | null)?.country_code;
    return code ? code.toUpperCase() : null;
  } catch {
    return null;
  }
}

/** English name of a country code ("United States"). */
export const countryName = (code: string): string => regionNames.of(code) ?? code;

/** The browser's name without its version, lower-case ("chrome"): what the browser filter takes. */
export const browserName = (browser: string | null): string | null => (browser ? browser.replace(/[\d.\s]+$/, '').toLowerCase() || null : null);
