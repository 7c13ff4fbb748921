import { describe, expect, it } from 'vitest';
import { parseSteps, stepLabel } from '../../../src/lib/funnelSteps.js';

describe('the New funnel form steps', () => {
  it('reads one step a line: click: and event: lines, anything else a page', () => {
    expect(parseSteps(' /product/*\n\nclick: #add\nClick:Add to cart \nevent:  checkout\n/click: no')).toEqual([
      { page: '/product/*' },
      { click: '#add' },
      { click: 'Add to cart' },
      { event: 'checkout' },
      { page: '/click: no' },
    ]);
  });

  it('labels a step as it is typed', () => {
    const steps = parseSteps('/\nclick: #add\nevent: checkout');
    expect(steps.map(stepLabel)).toEqual(['/', 'click: #add', 'event: checkout']);
  });
});
