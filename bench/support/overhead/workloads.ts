// The three workloads of figure 2, as the issue sets them; --quick runs smaller ones.
import type { CDPSession, Page } from 'playwright-core';
import type { Workload } from './measure.js';

/** Sends CDP input events in small groups: in order, without a round trip per event. */
async function inGroups(count: number, send: (i: number) => Promise<unknown>, group = 50): Promise<void> {
  for (let i = 0; i < count; i += group) {
    await Promise.all(Array.from({ length: Math.min(group, count - i) }, (_, j) => send(i + j)));
  }
}

async function input(page: Page, cdp: CDPSession, moves: number, keys: number, scrolls: number): Promise<void> {
  await inGroups(moves, (i) => cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: 40 + ((i * 37) % 1100), y: 40 + ((i * 53) % 700) }));
  await page.focus('#field');
  const text = 'the quick brown fox jumps over the lazy dog ';
  await inGroups(
    keys,
    async (i) => {
      const key = text[i % text.length];
      await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key, text: key, unmodifiedText: key });
      await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key });
    },
    20,
  );
  await inGroups(scrolls, (i) => cdp.send('Input.dispatchMouseEvent', { type: 'mouseWheel', x: 600, y: 400, deltaX: 0, deltaY: i % 20 < 10 ? 240 : -240 }), 10);
  await page.evaluate('window.bench.frame()');
}

export function workloads(quick: boolean): Workload[] {
  // --quick's workloads show the figure works; its budget is judged on the full ones only.
  const a = quick ? { rows: 300, frames: 5 } : { rows: 2000, frames: 50 };
  const b = quick ? { moves: 400, keys: 40, scrolls: 20 } : { moves: 2000, keys: 200, scrolls: 100 };
  const c = quick ? 2000 : 10_000;
  const n = (value: number) => value.toLocaleString('en-US');
  return [
    {
      label: `(a) DOM mutations: ${n(a.rows)}-row table, ${a.frames} frames × (200 cell updates + 100 insertions/removals)`,
      recorderInWindow: false,
      run: (page) => page.evaluate(`window.bench.mutations(${a.rows}, ${a.frames}, 200, 100)`),
    },
    {
      label: `(b) input: ${n(b.moves)} mouse moves, ${b.keys} keystrokes, ${b.scrolls} scrolls`,
      recorderInWindow: false,
      run: (page, cdp) => input(page, cdp, b.moves, b.keys, b.scrolls),
    },
    {
      label: `(c) first full snapshot of a ${n(c)}-element page (page built, then the recorder starts)`,
      recorderInWindow: true,
      // Ours and rrweb differ here by a few percent at most, about the spread of one measurement:
      // each takes a second, so the median is taken over 15.
      fullRuns: 15,
      run: async (page) => {
        await page.evaluate(`window.bench.buildPage(${c})`);
      },
    },
  ];
}
