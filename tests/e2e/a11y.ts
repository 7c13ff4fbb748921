// Accessibility checks for the browser tests: axe-core on the page as it is now, and the
// contrast of the focused element's ring against what surrounds it.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Rules on whatever axe's defaults say: a control's visible label is part of its accessible name
 * (speech users say what they see), and pointer targets are at least 24 px or spaced (WCAG 2.2).
 */
const ALWAYS_ON = { 'label-content-name-mismatch': { enabled: true }, 'target-size': { enabled: true } };

/** axe finds no critical or serious violation on the page (minus `exclude`d parts, each with a reason at the call). */
export async function expectAccessible(page: Page, name: string, exclude: string[] = []): Promise<void> {
  let builder = new AxeBuilder({ page }).options({ rules: ALWAYS_ON });
  for (const selector of exclude) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  const blocking = violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`);
  expect(blocking, `axe on ${name}`).toEqual([]);
}

type Rgb = [number, number, number];

function parseColor(css: string): Rgb {
  const parts = css.match(/[\d.]+/g)?.map(Number) ?? [];
  if (parts.length < 3) throw new Error(`not a colour: ${css}`);
  return [parts[0], parts[1], parts[2]];
}

function luminance([r, g, b]: Rgb): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG contrast ratio of two CSS rgb() colours. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(parseColor(a)), luminance(parseColor(b))].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The focused element's outline colour and width, and the background the ring is drawn on: that of
 * the nearest ancestor with an opaque background (the ring sits outside the element).
 */
export async function focusRing(page: Page): Promise<{ element: string; style: string; width: number; ratio: number }> {
  const ring = await page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    const style = getComputedStyle(element);
    let background = 'rgb(255, 255, 255)';
    for (let node = element.parentElement; node; node = node.parentElement) {
      const color = getComputedStyle(node).backgroundColor;
      const alpha = color.startsWith('rgba') ? Number(color.split(',')[3].replace(')', '')) : 1;
      if (alpha >= 0.99) {
        background = color;
        break;
      }
    }
    return { element: element.outerHTML.slice(0, 80), style: style.outlineStyle, width: parseFloat(style.outlineWidth), color: style.outlineColor, background };
  });
  return { element: ring.element, style: ring.style, width: ring.width, ratio: contrastRatio(ring.color, ring.background) };
}
