import { describe, expect, it } from 'vitest';
import {
  DOMAINS_INVALID,
  DOMAINS_REQUIRED,
  END_BEFORE_START,
  END_REQUIRED,
  NAME_REQUIRED,
  START_REQUIRED,
  hostMatchesDomains,
  isValidDomain,
  normalizeDomains,
  addressesKept,
  domainOfEntry,
  invalidDomainEntries,
  parseDomainList,
  validateCampaign,
} from '../../../common/domains.js';

describe('a pasted web address', () => {
  it.each([
    ['https://leafandkettle.com/', 'leafandkettle.com'],
    ['http://example.com', 'example.com'],
    ['HTTPS://Shop.Example.com:8443/cart?x=1#top', 'shop.example.com:8443'],
    ['https://example.com:443/', 'example.com'],
    ['example.com/path', 'example.com'],
    ['http://[::1]:3000/', '[::1]:3000'],
    ['localhost:3000', 'localhost:3000'],
  ])('%s stands for %s', (entry, host) => {
    expect(domainOfEntry(entry)).toBe(host);
    expect(isValidDomain(entry)).toBe(true);
  });
  it('is stored as its host and port, and the form can say what was kept and which entry is wrong', () => {
    const list = 'https://leafandkettle.com/, shop.example.org, not a domain, http://x';
    expect(normalizeDomains('https://leafandkettle.com/ , localhost:3000')).toBe('leafandkettle.com, localhost:3000');
    expect(addressesKept(list)).toEqual([{ entry: 'https://leafandkettle.com/', kept: 'leafandkettle.com' }]);
    expect(invalidDomainEntries(list)).toEqual(['not a domain', 'http://x']);
    expect(validateCampaign({ name: 'n', domains: 'https://leafandkettle.com/', start_date_time: 1, end_date_time: 2 })).toBeNull();
  });
});

describe('parseDomainList', () => {
  it('splits on commas, trims and drops empty entries', () => {
    expect(parseDomainList(' example.com, ,shop.example.org ,,')).toEqual(['example.com', 'shop.example.org']);
    expect(parseDomainList(' , ')).toEqual([]);
    expect(normalizeDomains('a.com ,b.org,')).toBe('a.com, b.org');
  });
});

describe('isValidDomain', () => {
  it.each([
    'localhost',
    'localhost:3000',
    'LOCALHOST:8080',
    '127.0.0.1',
    '192.168.1.20:8080',
    '::1',
    '2001:db8::1',
    '1:2:3:4:5:6:7:8',
    '::ffff:192.0.2.1',
    '[::1]',
    '[2001:db8::1]:8443',
    'example.com',
    'Shop.Example.CO.UK',
    'my-site.io:8080',
    'xn--bcher-kva.de',
  ])('accepts %s', (entry) => expect(isValidDomain(entry)).toBe(true));

  it.each([
    '',
    'example',
    'example.c',
    'example.c0m',
    'ftp://example.com',
    'mailto:shop@example.com',
    '*.example.com',
    'exa_mple.com',
    '-example.com',
    'example-.com',
    'exa mple.com',
    'localhost:0',
    'localhost:65536',
    'localhost:',
    '256.1.1.1',
    '1.2.3',
    '01.2.3.4',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    '[::1]:',
    '[::1]:99999',
    '[example.com]',
    'gggg::1',
  ])('rejects %s', (entry) => expect(isValidDomain(entry)).toBe(false));
});

describe('hostMatchesDomains', () => {
  it('matches host names, their subdomains and ports', () => {
    expect(hostMatchesDomains('example.com', 'other.org, example.com')).toBe(true);
    expect(hostMatchesDomains('WWW.Example.com', 'example.com')).toBe(true);
    expect(hostMatchesDomains('example.com:8080', 'example.com')).toBe(true);
    expect(hostMatchesDomains('example.com:8080', 'example.com:8080')).toBe(true);
    expect(hostMatchesDomains('example.com:9090', 'example.com:8080')).toBe(false);
    expect(hostMatchesDomains('example.com', 'example.com:8080')).toBe(false);
    expect(hostMatchesDomains('badexample.com', 'example.com')).toBe(false);
    expect(hostMatchesDomains('example.com.evil.io', 'example.com')).toBe(false);
    expect(hostMatchesDomains('example.com', 'www.example.com')).toBe(false);
  });

  it('matches localhost, IPv4 and IPv6 exactly', () => {
    expect(hostMatchesDomains('localhost:5173', 'localhost')).toBe(true);
    expect(hostMatchesDomains('localhost:5173', 'localhost:3000')).toBe(false);
    expect(hostMatchesDomains('10.0.0.1:8080', '10.0.0.1')).toBe(true);
    expect(hostMatchesDomains('10.0.0.2', '10.0.0.1')).toBe(false);
    expect(hostMatchesDomains('[::1]:8080', '0:0:0:0:0:0:0:1')).toBe(true);
    expect(hostMatchesDomains('[::1]:8080', '[::1]:8081')).toBe(false);
    expect(hostMatchesDomains('[2001:db8::1]', '2001:DB8:0::1')).toBe(true);
  });

  it('refuses malformed hosts and empty lists', () => {
    expect(hostMatchesDomains('', 'example.com')).toBe(false);
    expect(hostMatchesDomains('example.com', '')).toBe(false);
    expect(hostMatchesDomains('exa mple.com', 'example.com')).toBe(false);
  });
});

describe('validateCampaign', () => {
  const valid = { name: 'Spring sale', domains: 'example.com', start_date_time: 1000, end_date_time: 2000 };

  it('accepts a complete campaign', () => expect(validateCampaign(valid)).toBeNull());

  it('answers the spec message of the first broken rule', () => {
    expect(DOMAINS_INVALID).toMatch(/^Please enter valid domains \(e\.g\., [^,]+, [^,]+\)$/);
    expect(validateCampaign({ ...valid, name: '   ' })).toBe(NAME_REQUIRED);
    expect(validateCampaign({ ...valid, name: undefined, domains: '' })).toBe(NAME_REQUIRED);
    expect(validateCampaign({ ...valid, domains: ' , ' })).toBe(DOMAINS_REQUIRED);
    expect(validateCampaign({ ...valid, domains: 'example.com, nope' })).toBe(DOMAINS_INVALID);
    expect(validateCampaign({ ...valid, start_date_time: null })).toBe(START_REQUIRED);
    expect(validateCampaign({ ...valid, start_date_time: Number.NaN })).toBe(START_REQUIRED);
    expect(validateCampaign({ ...valid, end_date_time: undefined })).toBe(END_REQUIRED);
    expect(validateCampaign({ ...valid, end_date_time: 1000 })).toBe(END_BEFORE_START);
    expect(validateCampaign({ ...valid, end_date_time: 999 })).toBe(END_BEFORE_START);
  });

  it('uses the spec texts word for word', () => {
    expect([NAME_REQUIRED, DOMAINS_REQUIRED, START_REQUIRED, END_REQUIRED, END_BEFORE_START]).toEqual([
      'Campaign name is required',
      'At least one domain is required',
      'Start date is required',
      'End date is required',
      'End date must be after start date',
    ]);
  });
});
