// Two frustration signals of common/session-facts.ts's rules, folded batch after batch with the
// rest: quick backs (A → B → A within seconds) and excessive scrolling (back and forth).

/** Quick back: the visitor left a page and loaded it again within this long of leaving it (A → B → A). */
export const QUICK_BACK_MS = 5000;
/**
 * Excessive scrolling: at least SCROLL_REVERSALS changes of vertical direction of one scrolling
 * element within SCROLL_WINDOW_MS, each after a swing of at least SCROLL_SWING_PX.
 */
export const SCROLL_REVERSALS = 4;
export const SCROLL_WINDOW_MS = 10_000;
export const SCROLL_SWING_PX = 200;

export interface Scrolling {
  id: number;
  dir: number;
  peak: number;
  turns: number[];
}

/** What these rules read and raise of a session's facts (SessionFacts has it all). */
export interface FrustrationFacts {
  pageTrail: [string, number][];
  quickBackCount: number;
  scrolling: Scrolling | null;
  excessiveScrollCount: number;
}

export const isScrolling = (value: unknown): value is Scrolling => {
  const s = value as Scrolling | null;
  return !!s && typeof s === 'object' && [s.id, s.dir, s.peak].every((v) => typeof v === 'number') && Array.isArray(s.turns);
};

/**
 * A page loaded again (A → B → A) within QUICK_BACK_MS of leaving it (B's load) is a quick back.
 * The same path again (a reload, or rrweb's periodic snapshot) is the same page, not a visit.
 * Whether this load was one (the replay marks it).
 */
export function quickBack(facts: FrustrationFacts, path: string, t: number): boolean {
  const trail = facts.pageTrail;
  const last = trail[trail.length - 1];
  if (last?.[0] === path) return false;
  const before = trail[trail.length - 2];
  const back = before?.[0] === path && t >= last[1] && t - last[1] <= QUICK_BACK_MS;
  if (back) facts.quickBackCount++;
  facts.pageTrail = [...trail.slice(-1), [path, t]];
  facts.scrolling = null;
  return back;
}

/**
 * Scrolling back and forth: one element's vertical scroll, a reversal when it moves back
 * SCROLL_SWING_PX from the farthest point of its swing. SCROLL_REVERSALS reversals within
 * SCROLL_WINDOW_MS count once, and the next count needs as many again. Another element
 * scrolling, or another page, starts afresh. Whether this scroll completed a burst (the replay marks it).
 */
export function scroll(facts: FrustrationFacts, id: number, y: number, t: number): boolean {
  const was = facts.scrolling;
  if (!was || was.id !== id) {
    facts.scrolling = { id, dir: 0, peak: y, turns: [] };
    return false;
  }
  let burst = false;
  const s: Scrolling = { ...was, turns: was.turns.filter((at) => t >= at && t - at <= SCROLL_WINDOW_MS) };
  const moved = y - s.peak;
  if (s.dir === 0) {
    if (Math.abs(moved) >= SCROLL_SWING_PX) Object.assign(s, { dir: Math.sign(moved), peak: y });
  } else if (Math.sign(moved) === s.dir) {
    s.peak = y;
  } else if (Math.abs(moved) >= SCROLL_SWING_PX) {
    Object.assign(s, { dir: -s.dir, peak: y });
    s.turns.push(t);
    if (s.turns.length >= SCROLL_REVERSALS) {
      facts.excessiveScrollCount++;
      s.turns = [];
      burst = true;
    }
  }
  facts.scrolling = s;
  return burst;
}
