import { describe, expect, it } from 'vitest';
import { collectAssetUrls } from '../../../../src/offline/replayAssets.js';

describe('assets a replay references', () => {
  it('finds images, srcsets, stylesheets, fonts and CSS backgrounds, resolved against the page', () => {
    const events = [
      { type: 4, data: { href: 'https://shop.example/products/1', width: 1280, height: 720 } },
      {
        type: 2,
        data: {
          node: {
            type: 0,
            childNodes: [
              {
                type: 2,
                tagName: 'html',
                attributes: {},
                childNodes: [
                  {
                    type: 2,
                    tagName: 'link',
                    attributes: { rel: 'stylesheet', href: 'https://cdn.example/site.css', _cssText: '@font-face{src:url("/fonts/inter.woff2")}' },
                  },
                  { type: 2, tagName: 'link', attributes: { rel: 'canonical', href: 'https://shop.example/p' } },
                  { type: 2, tagName: 'a', attributes: { href: 'https://shop.example/cart' } },
                  { type: 2, tagName: 'style', attributes: {}, childNodes: [{ type: 3, textContent: '.hero{background:url(img/hero.jpg)}', isStyle: true }] },
                  { type: 2, tagName: 'img', attributes: { src: 'logo.png', srcset: 'logo@2x.png 2x, logo@3x.png 3x' } },
                  { type: 2, tagName: 'img', attributes: { src: 'data:image/png;base64,AAAA' } },
                  { type: 2, tagName: 'script', attributes: { src: 'https://shop.example/app.js' } },
                  { type: 2, tagName: 'iframe', attributes: { src: 'https://ads.example/frame' } },
                ],
              },
            ],
          },
        },
        timestamp: 1,
      },
      {
        type: 3,
        data: {
          source: 0,
          adds: [{ parentId: 1, node: { type: 2, tagName: 'img', attributes: { src: 'https://img.example/late.webp' }, childNodes: [] } }],
          attributes: [{ id: 4, attributes: { style: "background-image: url('/bg.png')" } }],
          texts: [],
          removes: [],
        },
        timestamp: 2,
      },
      { type: 3, data: { source: 8, id: 9, adds: [{ rule: '.x{background:url(/rule.gif)}' }] }, timestamp: 3 },
      { type: 3, data: { source: 1, positions: [] }, timestamp: 4 },
    ];
    expect(collectAssetUrls(events).sort()).toEqual(
      [
        'https://cdn.example/site.css',
        'https://shop.example/fonts/inter.woff2',
        'https://shop.example/products/img/hero.jpg',
        'https://shop.example/products/logo.png',
        'https://shop.example/products/logo@2x.png',
        'https://shop.example/products/logo@3x.png',
        'https://img.example/late.webp',
        'https://shop.example/bg.png',
        'https://shop.example/rule.gif',
      ].sort(),
    );
  });

  it('ignores events without data and stays under the per-replay cap', () => {
    const many = Array.from({ length: 400 }, (_, i) => ({ type: 2, tagName: 'img', attributes: { src: `https://x.example/${i}.png` } }));
    const events = [{ type: 5 }, { type: 2, data: { node: { type: 0, childNodes: many } } }];
    expect(collectAssetUrls(events)).toHaveLength(300);
  });
});
