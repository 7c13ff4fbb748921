import { describe, expect, it } from 'vitest';
import { storedIp, truncatedIp } from '../../../server/recordings/session-rows.js';

describe('truncatedIp', () => {
  it.each([
    ['192.0.2.187', '192.0.2.0'],
    ['10.1.2.3', '10.1.2.0'],
    ['203.0.113.0', '203.0.113.0'],
  ])('zeroes the last octet of IPv4 %s', (ip, expected) => {
    expect(truncatedIp(ip)).toBe(expected);
  });

  it.each([
    ['2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:db8:85a3::'],
    ['2001:db8::1', '2001:db8:0::'],
    ['2001:0db8:85a3:0000:0000:8a2e:0370:7334', '2001:db8:85a3::'],
    ['fe80::1%eth0', 'fe80:0:0::'],
    ['64:ff9b::192.0.2.33', '64:ff9b:0::'],
  ])('keeps only the first 48 bits of IPv6 %s', (ip, expected) => {
    expect(truncatedIp(ip)).toBe(expected);
  });

  it('stores nothing for what is not an address', () => {
    expect(truncatedIp('unknown')).toBeNull();
    expect(truncatedIp('')).toBeNull();
  });
});

describe('storedIp', () => {
  it('stores the address as the campaign says', () => {
    expect(storedIp('192.0.2.187', 'full')).toBe('192.0.2.187');
    expect(storedIp('192.0.2.187', 'truncated')).toBe('192.0.2.0');
    expect(storedIp('192.0.2.187', 'none')).toBeNull();
  });
});
