// The heat drawn over a page: where each layer's clicks go, and the colours. Clicks land on their
// element's box in the rebuilt page (at their average place in it), so heat sits on the same
// element at every screen size; clicks on elements the page no longer has fall back to the
// page-position bins.
import type { Heatmap } from '../../common/api/heatmaps.js';
import type { HeatLayer } from './heatLayers.js';

type Counts = { clicks: number; rageClicks: number; deadClicks: number; errorClicks: number };
export const layerCount = (counts: Counts, layer: HeatLayer): number =>
  layer === 'all' ? counts.clicks : layer === 'rage' ? counts.rageClicks : layer === 'dead' ? counts.deadClicks : counts.errorClicks;

/** An element of the heatmap found in the rebuilt page, with its box in page pixels. */
export interface ElementBox {
  element: Heatmap['elements'][number];
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface HeatPoint {
  x: number;
  y: number;
  weight: number;
}

/** The layer's points: one per element found (at its clicks' average place), the rest from the bins. */
export function heatPoints(heatmap: Heatmap, layer: HeatLayer, boxes: ElementBox[], viewportWidth: number): HeatPoint[] {
  const points: HeatPoint[] = [];
  let placed = 0;
  for (const box of boxes) {
    const weight = layerCount(box.element, layer);
    if (!weight) continue;
    placed += weight;
    points.push({ x: box.x + box.element.fx * box.width, y: box.y + box.element.fy * box.height, weight });
  }
  const total = layerCount(heatmap, layer);
  const rest = total > placed ? (total - placed) / Math.max(1, total) : 0;
  if (rest > 0) {
    for (const bin of heatmap.bins) {
      const weight = layerCount(bin, layer) * rest;
      if (weight > 0) points.push({ x: ((bin.x + 0.5) / heatmap.binColumns) * viewportWidth, y: (bin.y + 0.5) * heatmap.binRowPx, weight });
    }
  }
  return points;
}

/** Blue (little) through green and yellow to red (most), as the legend shows it. */
export function heatColour(intensity: number): [number, number, number] {
  const t = Math.max(0, Math.min(1, intensity));
  const stops: [number, number, number][] = [
    [0, 0, 255],
    [0, 255, 255],
    [0, 255, 0],
    [255, 255, 0],
    [255, 0, 0],
  ];
  const at = t * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(at));
  const f = at - i;
  return stops[i].map((c, k) => Math.round(c + (stops[i + 1][k] - c) * f)) as [number, number, number];
}

export const HEAT_GRADIENT = 'linear-gradient(to right, rgb(0,0,255), rgb(0,255,255), rgb(0,255,0), rgb(255,255,0), rgb(255,0,0))';

/** heatColour for each alpha (0–255) a pixel can have, with the alpha it is drawn at. */
const PALETTE: Uint8ClampedArray = (() => {
  const palette = new Uint8ClampedArray(256 * 4);
  for (let alpha = 1; alpha < 256; alpha++) {
    palette.set([...heatColour(alpha / 255), Math.round(40 + alpha * 0.75)], alpha * 4);
  }
  return palette;
})();

/** One soft disc, opaque black at its centre to clear at `radius`, stamped once per point (a gradient each was slower). */
function softDisc(radius: number): HTMLCanvasElement {
  const disc = document.createElement('canvas');
  disc.width = disc.height = radius * 2;
  const context = disc.getContext('2d')!;
  const gradient = context.createRadialGradient(radius, radius, 0, radius, radius, radius);
  gradient.addColorStop(0, 'rgba(0,0,0,1)');
  gradient.addColorStop(1, 'rgba(0,0,0,0)');
  context.fillStyle = gradient;
  context.fillRect(0, 0, radius * 2, radius * 2);
  return disc;
}

/**
 * Draws the points on the canvas (its pixels are page pixels): each a soft disc whose strength
 * is its share of the hottest, summed, then coloured; the alpha grows with the heat, so the
 * hottest pixel is the most opaque. Only the points' bounding box is read back and coloured.
 */
export function drawHeat(canvas: HTMLCanvasElement, points: HeatPoint[], radius = 24): void {
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return;
  context.clearRect(0, 0, canvas.width, canvas.height);
  if (!points.length) return;
  const max = Math.max(...points.map((p) => p.weight));
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const disc = softDisc(radius);
  for (const point of points) {
    context.globalAlpha = Math.max(0.05, point.weight / max);
    context.drawImage(disc, point.x - radius, point.y - radius);
  }
  context.globalAlpha = 1;
  const x = Math.max(0, Math.floor(Math.min(...xs) - radius));
  const y = Math.max(0, Math.floor(Math.min(...ys) - radius));
  const width = Math.min(canvas.width, Math.ceil(Math.max(...xs) + radius)) - x;
  const height = Math.min(canvas.height, Math.ceil(Math.max(...ys) + radius)) - y;
  if (width <= 0 || height <= 0) return;
  const image = context.getImageData(x, y, width, height);
  const pixels = image.data;
  for (let i = 0; i < pixels.length; i += 4) {
    const alpha = pixels[i + 3];
    if (!alpha) continue;
    const colour = alpha * 4;
    pixels[i] = PALETTE[colour];
    pixels[i + 1] = PALETTE[colour + 1];
    pixels[i + 2] = PALETTE[colour + 2];
    pixels[i + 3] = PALETTE[colour + 3];
  }
  context.putImageData(image, x, y);
}
