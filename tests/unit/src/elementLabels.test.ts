import { describe, expect, it } from 'vitest';
import { elementLabels } from '../../../src/components/heatmaps/elementLabels.js';

// The heatmap's rows named from the rebuilt page: one name each, where a name is shared the place
// (a product card's heading, a labelled region), and never a selector path.

const row = (selector: string, text = '') => ({ selector, text, clicks: 1, rageClicks: 0, deadClicks: 0, errorClicks: 0, fx: 0.5, fy: 0.5 });
const rows = [
  row('body>div>ul>li:nth-of-type(3)>button', 'Add to cart'),
  row('body>div>ul>li>button', 'Add to cart'),
  row('body>div>ul>li:nth-of-type(2)>button', 'Add to cart'),
  row('body>aside>div>div>button'),
  row('#promo>div>div>div>div>div>div>a'),
  row('body>footer>button:nth-of-type(2)', 'Help'),
  row('body>footer>button', 'Help'),
];

describe('the heatmap’s element names', () => {
  it('tells rows with one name apart by their card’s heading, then by their order on the page; unlabelled ones by kind and region', () => {
    document.body.innerHTML = `<h1>Tea shop</h1><div><ul>
      <li><h2>Kettle</h2><button>Add to cart</button></li><li><h2>Teapot</h2><button>Add to cart</button></li><li><h2>Mug</h2><button>Add to cart</button></li>
      </ul></div><aside aria-label="Newsletter"><div><div><button><svg></svg></button></div></div></aside>
      <footer><button>Help</button><button>Help</button></footer>`;
    const labels = elementLabels(rows, document);
    expect(rows.map((r) => labels.get(r.selector))).toEqual([
      'Add to cart (Mug)',
      'Add to cart (Kettle)',
      'Add to cart (Teapot)',
      'Button (Newsletter)',
      'Link (promo)',
      'Help (2nd of 2)',
      'Help (1st of 2)',
    ]);
  });

  it('names rows short from their selector alone before the page is rebuilt', () => {
    const labels = elementLabels(rows, null);
    expect([...labels.values()].every((label) => label.length <= 40 && !label.includes('>'))).toBe(true);
    expect(labels.get('#promo>div>div>div>div>div>div>a')).toBe('Link (promo)');
    expect(labels.get('body>aside>div>div>button')).toBe('Button');
  });
});
