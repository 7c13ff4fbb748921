import { describe, expect, it } from 'vitest';
import { storedIpLabel } from '../../../src/lib/format.js';

describe('the IP address as stored', () => {
  it('says the address was truncated, not stored, or shows it as seen', () => {
    expect(storedIpLabel({ remoteIpAddress: '192.0.2.0', ipMode: 'truncated' })).toBe('192.0.2.0 (truncated)');
    expect(storedIpLabel({ remoteIpAddress: '2001:db8:1::', ipMode: 'truncated' })).toBe('2001:db8:1:: (truncated)');
    expect(storedIpLabel({ remoteIpAddress: null, ipMode: 'none' })).toBe('Not stored');
    expect(storedIpLabel({ remoteIpAddress: '192.0.2.7', ipMode: 'full' })).toBe('192.0.2.7');
  });

  it('labels sessions by the mode they were stored under; cached ones without it as before', () => {
    expect(storedIpLabel({ remoteIpAddress: '192.0.2.7' })).toBe('192.0.2.7');
    expect(storedIpLabel({ remoteIpAddress: null })).toBe('Unknown');
    expect(storedIpLabel({ remoteIpAddress: null, ipMode: 'full' }, '—')).toBe('—');
  });
});
