// The campaign rules (name, accepted domains, dates, limit) as pure functions, shared by the
// create-campaign form and the server, with the messages both show word for word.

export const NAME_REQUIRED = 'Campaign name is required';
export const DOMAINS_REQUIRED = 'At least one domain is required';
export const DOMAINS_INVALID = 'Please enter valid domains (e.g., example.com, localhost:3000)';
export const START_REQUIRED = 'Start date is required';
export const END_REQUIRED = 'End date is required';
export const END_BEFORE_START = 'End date must be after start date';
export const LIMIT_INVALID = 'Session limit must be a whole number from 1 to 20, or 0 for no limit';

/** The form offers 1 to 20 sessions; 0 on a campaign means no limit. */
export const MAX_SESSION_LIMIT = 20;

/** Whether a session limit is one the form offers (a whole number 1–20) or 0, no limit. */
export const isSessionLimit = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_SESSION_LIMIT;

/** How long recordings may be kept, in days; 0 keeps them forever. */
export const RETENTION_DAYS = [7, 30, 90, 365, 0] as const;
export type RetentionDays = (typeof RETENTION_DAYS)[number];
export const DEFAULT_RETENTION_DAYS: RetentionDays = 90;

/** full: the address as seen; truncated: IPv4 last octet and IPv6 last 80 bits zeroed; none: no address. */
export const IP_MODES = ['full', 'truncated', 'none'] as const;
export type IpMode = (typeof IP_MODES)[number];
export const DEFAULT_IP_MODE: IpMode = 'truncated';

/** Caps the server enforces (the form may use them as maxLength). */
export const MAX_NAME_LENGTH = 200;
export const MAX_DOMAINS_LENGTH = 2000;

/** One entry split into its host part (lower case, IPv6 without brackets) and its port. */
export interface DomainEntry {
  host: string;
  port: number | null;
  kind: 'localhost' | 'ipv4' | 'ipv6' | 'hostname';
}

/** The comma-separated list: each entry trimmed, empty entries dropped. */
export function parseDomainList(domains: string): string[] {
  return domains
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

function parsePort(text: string | undefined): number | null | undefined {
  if (text === undefined) return null;
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : undefined;
}

export function isIPv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
}

/** IPv6 text without brackets, checked by the WHATWG URL parser both browsers and Node share. */
export function isIPv6(text: string): boolean {
  if (!/^[0-9a-f:.]+$/i.test(text) || !text.includes(':')) return false;
  try {
    new URL(`http://[${text}]/`);
    return true;
  } catch {
    return false;
  }
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

function isHostName(host: string): boolean {
  const labels = host.split('.');
  if (labels.length < 2 || host.length > 253) return false;
  const suffix = labels[labels.length - 1];
  return /^[a-z]{2,63}$/.test(suffix) && labels.every((label) => LABEL.test(label));
}

/**
 * Parses one entry: localhost, IPv4 or a host name with an optional port; IPv6 bare or in
 * brackets with an optional port. A host name may carry a port too (staging sites often do).
 */
export function parseDomain(entry: string): DomainEntry | null {
  const text = entry.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::(\d*))?$/.exec(text);
  if (bracketed) {
    const port = parsePort(bracketed[2]);
    return isIPv6(bracketed[1]) && port !== undefined ? { host: bracketed[1], port, kind: 'ipv6' } : null;
  }
  if (text.split(':').length > 2) return isIPv6(text) ? { host: text, port: null, kind: 'ipv6' } : null;
  const [host, portText] = text.split(':');
  const port = parsePort(portText);
  if (port === undefined) return null;
  if (host === 'localhost') return { host, port, kind: 'localhost' };
  if (isIPv4(host)) return { host, port, kind: 'ipv4' };
  return isHostName(host) ? { host, port, kind: 'hostname' } : null;
}

/**
 * What an entry stands for: a pasted web address ("https://shop.example.com:8443/cart") its host
 * and port (the port only when not the scheme's default); anything else as typed.
 */
export function domainOfEntry(entry: string): string {
  const scheme = /^https?:\/\//i.test(entry);
  if (!scheme && !entry.includes('/')) return entry;
  try {
    const url = new URL(scheme ? entry : `http://${entry}`);
    return url.host || entry;
  } catch {
    return entry;
  }
}

export function isValidDomain(entry: string): boolean {
  return parseDomain(domainOfEntry(entry)) !== null;
}

/** The entries of a list that are not valid, as typed: what the form names under its message. */
export const invalidDomainEntries = (domains: string): string[] => parseDomainList(domains).filter((entry) => !isValidDomain(entry));

/** The pasted addresses of a list with what is kept of each (its host and port). */
export const addressesKept = (domains: string): { entry: string; kept: string }[] =>
  parseDomainList(domains)
    .filter((entry) => isValidDomain(entry) && domainOfEntry(entry) !== entry)
    .map((entry) => ({ entry, kept: domainOfEntry(entry) }));

/** The list as the server stores it: entries trimmed, empties dropped, addresses cut to their host, joined by ", ". */
export function normalizeDomains(domains: string): string {
  return parseDomainList(domains).map(domainOfEntry).join(', ');
}

/** Canonical IPv6 text (compressed, lower case) so "0:0::1" and "::1" compare equal. */
function canonicalIPv6(address: string): string {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

function sameHost(a: DomainEntry, b: DomainEntry): boolean {
  if (a.kind === 'ipv6' || b.kind === 'ipv6') {
    return a.kind === b.kind && canonicalIPv6(a.host) === canonicalIPv6(b.host);
  }
  return a.host === b.host;
}

/**
 * Whether a page's host (URL.host: host name plus port when not the default) is accepted by a
 * campaign's domain list. An entry without a port accepts any port; an entry with a port only
 * that port. A host-name entry also accepts its subdomains ("example.com" takes "www.example.com").
 */
export function hostMatchesDomains(originHost: string, domains: string): boolean {
  const origin = parseDomain(originHost);
  if (!origin) return false;
  return parseDomainList(domains).some((text) => {
    const entry = parseDomain(text);
    if (!entry || (entry.port !== null && entry.port !== origin.port)) return false;
    if (sameHost(entry, origin)) return true;
    return entry.kind === 'hostname' && origin.kind === 'hostname' && origin.host.endsWith(`.${entry.host}`);
  });
}

export interface CampaignDraft {
  name?: string | null;
  domains?: string | null;
  start_date_time?: number | null;
  end_date_time?: number | null;
}

const missing = (value: number | null | undefined) => value === null || value === undefined || !Number.isFinite(value);

/** The spec's first validation message for a campaign, or null when it is valid. */
export function validateCampaign(payload: CampaignDraft): string | null {
  if (!payload.name || payload.name.trim() === '') return NAME_REQUIRED;
  const entries = parseDomainList(payload.domains ?? '');
  if (entries.length === 0) return DOMAINS_REQUIRED;
  if (!entries.every(isValidDomain)) return DOMAINS_INVALID;
  if (missing(payload.start_date_time)) return START_REQUIRED;
  if (missing(payload.end_date_time)) return END_REQUIRED;
  if ((payload.end_date_time as number) <= (payload.start_date_time as number)) return END_BEFORE_START;
  return null;
}
