import { describe, expect, it } from 'vitest';
import { DEVICE_KINDS, viewportClass } from '../../../common/devices.js';
import { softwareOf, summariseUserAgent } from '../../../common/user-agent.js';

const IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

describe('a device kind (user agent) and a viewport class (width) are two things', () => {
  it('stores the device kinds the list filters by, and shows the same reading in words', () => {
    expect([LINUX, IPHONE, IPAD].map((ua) => softwareOf(ua).device)).toEqual([...DEVICE_KINDS]);
    expect(softwareOf(IPHONE)).toEqual({ browser: 'Safari 17', os: 'iOS 17.0', device: 'mobile' });
    expect(summariseUserAgent(IPHONE)).toEqual({ browser: 'Safari 17', os: 'iOS 17.0', device: 'Phone' });
    expect(softwareOf('')).toEqual({ browser: null, os: null, device: null });
  });

  it('classes a phone held sideways by its width, not by its user agent', () => {
    expect(softwareOf(IPHONE).device).toBe('mobile');
    expect(viewportClass(852)).toBe('tablet');
  });
});
