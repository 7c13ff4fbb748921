import { describe, expect, it } from 'vitest';
import { utmOf, utmValue } from '../../../common/utm.js';

// The entry page's UTM parameters as the tracker reads them and ingest checks them again (common/utm.ts).
describe('UTM parameters', () => {
  it('reads utm_source, utm_medium and utm_campaign of a query string, decoded', () => {
    expect(utmOf('?utm_source=news%20letter&utm_medium=email&utm_campaign=spring+sale&utm_term=mugs&q=1')).toEqual({
      utmSource: 'news letter',
      utmMedium: 'email',
      utmCampaign: 'spring sale',
    });
  });

  it('leaves out those not given or empty', () => {
    expect(utmOf('?utm_source=&utm_campaign=%20')).toEqual({ utmSource: undefined, utmMedium: undefined, utmCampaign: undefined });
    expect(JSON.stringify(utmOf(''))).toBe('{}');
  });

  it('masks visitor data as captured text is masked, keeps at most 100 characters, and changes nothing the second time', () => {
    const value = utmValue(`jane@example.com-4111 1111 1111 1111-${'x'.repeat(200)}`);
    expect(value).toBe(`[email]-**** **** **** ****-${'x'.repeat(72)}`);
    expect(value).toHaveLength(100);
    expect(utmValue(value)).toBe(value);
  });

  it('drops characters a database column cannot hold', () => {
    expect(utmValue('spring\0sale\uD800')).toBe('springsale');
  });
});
