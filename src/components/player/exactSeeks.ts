// rrweb's Replayer seeks backwards by rebuilding the page from the full snapshot before the moment
// and replaying what followed it at once; two things outlive that rebuild and show a page that
// never existed (issue 36, item 2; tests/e2e/seek-fuzz.test.ts):
// - the page's scroll. While fast-forwarding, a scroll of the page is kept on the virtual DOM's
//   document (scrollData) and applied when the virtual DOM is patched into the page. The virtual
//   document lives as long as the Replayer and nothing clears that scroll, so every later patch
//   (the next seek, back or forward) scrolls the page to wherever some earlier seek last saw it.
// - the cursor. It is only moved by a mouse event replayed on the way, so a seek back to before
//   the first one (the start) leaves it where it was. A fresh player has it nowhere until the page
//   drawn (a full snapshot) sees the mouse move, so every rebuilt page puts it back there.
// And a seek forward after a seek can replay a change twice, which corrupts the recording held:
// rrweb resumes after the last event it played, but if that was a batch of mouse moves, from the
// first move in the batch (up to half a second earlier), as if playing had stopped there. A seek
// plays every event up to its moment, so the changes made in that half second are applied again;
// removing a node that is already gone fails, and rrweb then drops that removal from the event for
// good, so every later seek through it keeps the node: the header read "Cart (05)" for "Cart (5)".
// After a seek, the batch counts as played up to its own time.
// And rrweb's seek places the cursor by the last mouse event on a node its real page holds, so a
// click on a node added during the same seek (an item's "remove" button) is skipped, and a click on
// a node that is gone (removed by that click) does not move it at all: after a seek the cursor goes
// where the last mouse event before the moment says, as on the page drawn.

import { FULL_SNAPSHOT, INCREMENTAL_SNAPSHOT, META_EVENT } from './playerMath.js';

/** The parts of rrweb's Replayer this reaches into (not in its public types). */
type MoveAndHover = (x: number, y: number, id: number, isSync: boolean, debugData: unknown) => void;

interface Position {
  x: number;
  y: number;
  id: number;
  timeOffset: number;
}

interface PlayedEvent {
  type: number;
  timestamp: number;
  data?: { source?: number; type?: number; positions?: Position[]; x?: number; y?: number; id?: number };
}

interface ReplayerInternals {
  service?: { state: { context: { lastPlayedEvent: PlayedEvent | null; baselineTime: number; events: PlayedEvent[] } } };
  on?: (event: string, handler: (payload: unknown) => void) => void;
  mirror?: { getNode(id: number): unknown };
  moveAndHover?: MoveAndHover;
  virtualDom?: { scrollData?: unknown };
  mouse?: HTMLElement;
  mouseTail?: HTMLCanvasElement;
  tailPositions?: unknown[];
}

/** Puts the cursor back where a fresh player has it (no place yet) and wipes its trail. */
function resetCursor(replayer: ReplayerInternals) {
  replayer.mouse?.style.removeProperty('left');
  replayer.mouse?.style.removeProperty('top');
  replayer.mouse?.classList.remove('active');
  if (replayer.tailPositions) replayer.tailPositions.length = 0;
  const tail = replayer.mouseTail;
  tail?.getContext('2d')?.clearRect(0, 0, tail.width, tail.height);
}

/** Moves the cursor for a mouse event whose node is gone as for one on the recorded page itself (nothing to hover). */
function moveOverRemovedNodes(replayer: ReplayerInternals) {
  const moveAndHover = replayer.moveAndHover?.bind(replayer);
  if (!moveAndHover) return;
  replayer.moveAndHover = (x, y, id, isSync, debugData) => {
    if (replayer.mirror?.getNode(id) || !replayer.mouse) return moveAndHover(x, y, id, isSync, debugData);
    replayer.mouse.style.left = `${x}px`;
    replayer.mouse.style.top = `${y}px`;
  };
}

// rrweb's mouse sources (numbers, not @rrweb/types' enums: see playerMath).
const MOUSE_MOVE = 1;
const MOUSE_INTERACTION = 2;
const TOUCH_MOVE = 6;
const DRAG = 12;
/** The mouse interactions that place the cursor in a seek: mouse up, mouse down, click, touch start, touch end. */
const PLACING_INTERACTIONS = new Set([0, 1, 2, 7, 9]);

/** Where a mouse event leaves the cursor, if it moves it. */
function cursorAt(event: PlayedEvent): Position | null {
  const data = event.data;
  if (event.type !== INCREMENTAL_SNAPSHOT || !data) return null;
  if (data.source === MOUSE_MOVE || data.source === TOUCH_MOVE || data.source === DRAG) return data.positions?.at(-1) ?? null;
  const placing = data.source === MOUSE_INTERACTION && PLACING_INTERACTIONS.has(data.type ?? -1) && data.id !== undefined && data.id !== -1;
  return placing ? { x: data.x ?? 0, y: data.y ?? 0, id: data.id!, timeOffset: 0 } : null;
}

/** The cursor after a seek: at the last mouse event played (before the moment), none since the page was drawn. */
function placeCursor(replayer: ReplayerInternals) {
  const context = replayer.service?.state.context;
  if (!context) return;
  const { events, baselineTime } = context;
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event.timestamp >= baselineTime) continue;
    if (event.type === FULL_SNAPSHOT || event.type === META_EVENT) break;
    const at = cursorAt(event);
    if (at) return replayer.moveAndHover?.(at.x, at.y, at.id, true, event.data);
  }
  resetCursor(replayer);
}

/** A batch of mouse moves played by the seek just made (it is before the moment sought) counts as played up to its own time. */
function settleLastMouseMoves(replayer: ReplayerInternals) {
  const context = replayer.service?.state.context;
  const last = context?.lastPlayedEvent;
  const [first, ...rest] = last?.data?.positions ?? [];
  if (!context || !last || last.type !== INCREMENTAL_SNAPSHOT || last.data?.source !== MOUSE_MOVE || !first) return;
  if (first.timeOffset >= 0 || last.timestamp >= context.baselineTime) return;
  context.lastPlayedEvent = { ...last, data: { ...last.data, positions: [{ ...first, timeOffset: 0 }, ...rest] } };
}

/**
 * Makes every seek show what a fresh player opened at that moment shows. rrweb's own handlers run
 * first (they were registered when the Replayer was made): 'fullsnapshot-rebuilded' is said once a
 * page is drawn from a full snapshot (before a seek places the cursor), 'flush' once the
 * fast-forwarded page is patched in.
 */
export function keepSeeksExact(replayer: ReplayerInternals): void {
  moveOverRemovedNodes(replayer);
  replayer.on?.('fullsnapshot-rebuilded', () => resetCursor(replayer));
  replayer.on?.('flush', () => {
    if (replayer.virtualDom) replayer.virtualDom.scrollData = null;
    settleLastMouseMoves(replayer);
    placeCursor(replayer);
  });
}
