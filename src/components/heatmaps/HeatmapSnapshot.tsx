import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { EventType } from '@rrweb/types';
import type { Heatmap } from '../../../common/api/heatmaps.js';
import type { ReplayEvent } from '../../../common/api-types.js';
import { replayErrorMessage } from '../../api/replay.js';
import { snapshotReplayQueryOptions } from '../../api/heatmaps.js';
import { whenReached } from '../../replay/replaySource.js';
import { makePlayer, seekTo, type PlayerHandle } from '../player/rrwebPlayer.js';
import { drawHeat, heatPoints, layerCount, type ElementBox } from '../../lib/heat.js';
import type { HeatLayer } from '../../lib/heatLayers.js';
import { Spinner } from '../Spinner.js';

// The page itself under the heat: the snapshot session rebuilt by rrweb, in the player's own inert,
// sandboxed frame, at the moment the heatmap names, stretched to the page's whole height; a canvas
// over it draws the layer. Hovering (or tapping) a hot element names it; clicking picks it.

/** The tallest page drawn, in pixels (the rest of a longer page is cut). */
const MAX_PAGE_PX = 8000;

interface Props {
  campaignId: string;
  heatmap: Heatmap;
  layer: HeatLayer;
  /** The elements' names by selector (elementLabels.ts). */
  labels: Map<string, string>;
  onPick: (selector: string) => void;
  /** The rebuilt page, once it is (the elements are named from it), and null while none is. */
  onPage: (doc: Document | null) => void;
}

/** The recording's viewport at a moment: its last Meta event's size before it. */
function viewportAt(events: readonly ReplayEvent[], at: number): { width: number; height: number } {
  let size = { width: 1280, height: 800 };
  for (const event of events) {
    if (event.timestamp > at) break;
    const data = event.data as { width?: number; height?: number };
    if (event.type === EventType.Meta && data.width && data.height) size = { width: data.width, height: data.height };
  }
  return size;
}

/** The rebuilt page's frame: its document, and its frame stretched to the page's height. */
function stretch(player: PlayerHandle, width: number): { doc: Document; height: number } | null {
  const frame = player.rrweb.getReplayer().iframe;
  const doc = frame?.contentDocument;
  if (!frame || !doc?.documentElement) return null;
  frame.contentWindow?.scrollTo(0, 0);
  const height = Math.min(MAX_PAGE_PX, Math.max(doc.documentElement.scrollHeight, doc.body?.scrollHeight ?? 0, 1));
  frame.setAttribute('height', String(height));
  frame.setAttribute('width', String(width));
  // rrweb-player's boxes hold the viewport's height, centred and scaled: let them hold the
  // page's, at the stage's top left, unscaled (the stage scales).
  for (let box = frame.parentElement; box && !box.classList.contains('heatmap-stage'); box = box.parentElement) {
    Object.assign(box.style, { height: `${height}px`, width: `${width}px`, transform: 'none', position: 'relative', left: '0', top: '0', margin: '0' });
  }
  return { doc, height };
}

function boxesIn(doc: Document, heatmap: Heatmap): ElementBox[] {
  const boxes: ElementBox[] = [];
  for (const element of heatmap.elements) {
    let found: Element | null;
    try {
      found = doc.querySelector(element.selector);
    } catch {
      continue; // a selector the rebuilt page cannot read
    }
    const rect = found?.getBoundingClientRect();
    if (rect && rect.width > 0 && rect.height > 0) boxes.push({ element, x: rect.left, y: rect.top, width: rect.width, height: rect.height });
  }
  return boxes;
}

/** The snapshot page rebuilt: its document, and its size in page pixels. */
interface RebuiltPage {
  doc: Document;
  width: number;
  height: number;
}

/**
 * Rebuilds the snapshot session's page in `host`, once per snapshot: another answer with the same
 * snapshot (a refetch, another layer or filter) keeps the page and only redraws the heat.
 */
function useRebuiltPage(campaignId: string, snapshot: Heatmap['snapshot'], host: RefObject<HTMLDivElement | null>): RebuiltPage | null {
  const queryClient = useQueryClient();
  const [page, setPage] = useState<RebuiltPage | null>(null);
  const sessionId = snapshot?.sessionId;
  const at = snapshot?.timestamp;
  useEffect(() => {
    if (!sessionId || at === undefined) return;
    let player: PlayerHandle | null = null;
    let gone = false;
    void (async () => {
      // The replay the answer already asked for (fetchSnapshotReplay), awaited here rather than
      // through a render; a failure is the screen's to show (its own query).
      const source = await queryClient.ensureQueryData(snapshotReplayQueryOptions(campaignId, sessionId)).catch(() => null);
      if (gone || !source || !host.current) return;
      // The page is rebuilt once the recording is in up to the snapshot moment (not the rest of a
      // long one); the download need not wait for a player's first frame (as the replay page's does).
      source.markDrawn();
      const { events } = await whenReached(source, at);
      if (gone || !host.current || !events.length) return;
      const viewport = viewportAt(events, at);
      player = await makePlayer(host.current, events, viewport, [1], 1);
      if (gone) return player.rrweb.$destroy();
      seekTo(player, at - events[0].timestamp);
      // The seek patches the frame at once, but the player's first resize, a timer its
      // constructor set, would undo the stretch: stretch after it.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const stretched = !gone && stretch(player, viewport.width);
      if (stretched) setPage({ doc: stretched.doc, width: viewport.width, height: stretched.height });
    })();
    return () => {
      gone = true;
      player?.rrweb.$destroy();
      setPage(null);
    };
  }, [queryClient, campaignId, sessionId, at, host]);
  return page;
}

export function HeatmapSnapshot({ campaignId, heatmap, layer, labels, onPick, onPage }: Props) {
  const snapshot = heatmap.snapshot;
  const replay = useQuery({ ...snapshotReplayQueryOptions(campaignId, snapshot?.sessionId ?? ''), enabled: Boolean(snapshot) });
  const host = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const outer = useRef<HTMLDivElement>(null);
  const page = useRebuiltPage(campaignId, snapshot, host);
  const boxes = useMemo(() => (page ? boxesIn(page.doc, heatmap) : []), [page, heatmap]);
  const [scale, setScale] = useState(1);
  const [hovered, setHovered] = useState<{ box: ElementBox; x: number; y: number } | null>(null);
  useEffect(() => onPage(page?.doc ?? null), [page, onPage]);

  useEffect(() => {
    if (!page || !outer.current) return;
    const fit = () => setScale(Math.min(1, (outer.current?.clientWidth ?? page.width) / page.width));
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(outer.current);
    return () => observer.disconnect();
  }, [page]);

  // Before the browser paints: the stretched page never shows without its heat.
  useLayoutEffect(() => {
    if (!page || !canvas.current) return;
    drawHeat(canvas.current, heatPoints(heatmap, layer, boxes, page.width));
    // When the overlay was drawn (the performance figure measures it from the answer's arrival).
    canvas.current.dataset.drawnAt = String(Math.round(performance.now()));
    performance.mark('heatmap-drawn');
  }, [page, boxes, heatmap, layer]);

  if (!snapshot) return <p className="muted">No recording of this page at this device class yet to draw it on.</p>;
  if (replay.isError) return <p className="muted">{replayErrorMessage(replay.error)}</p>;

  const at = (event: { clientX: number; clientY: number }) => {
    const rect = canvas.current?.getBoundingClientRect();
    if (!rect || !page) return null;
    const x = (event.clientX - rect.left) / scale;
    const y = (event.clientY - rect.top) / scale;
    const under = boxes
      .filter((b) => layerCount(b.element, layer) > 0 && x >= b.x && x <= b.x + b.width && y >= b.y && y <= b.y + b.height)
      .sort((a, b) => a.width * a.height - b.width * b.height)[0];
    return under ? { box: under, x, y } : null;
  };

  return (
    <div className="heatmap-frame" ref={outer}>
      {!page && <Spinner label="Rebuilding the page" />}
      <div className="heatmap-viewport" style={page ? { width: page.width * scale, height: page.height * scale } : undefined}>
        <div className="heatmap-stage" style={page ? { width: page.width, height: page.height, transform: `scale(${scale})` } : undefined}>
          <div ref={host} className="heatmap-page" aria-hidden="true" />
          {page && (
            <canvas
              ref={canvas}
              className="heatmap-canvas"
              width={page.width}
              height={page.height}
              role="img"
              aria-label="Click heatmap"
              data-scale={scale}
              onPointerMove={(e) => setHovered(at(e))}
              onPointerLeave={() => setHovered(null)}
              onClick={(e) => {
                const hit = at(e);
                setHovered(hit);
                if (hit) onPick(hit.box.element.selector);
              }}
            />
          )}
          {hovered && (
            <div className="heatmap-tip" role="status" style={{ left: hovered.box.x, top: hovered.box.y + hovered.box.height + 4 }}>
              <strong>{labels.get(hovered.box.element.selector)}</strong>
              <span>
                {hovered.box.element.clicks} clicks · {hovered.box.element.rageClicks} rage · {hovered.box.element.deadClicks} dead ·{' '}
                {hovered.box.element.errorClicks} followed by an error
              </span>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
