// Heatmaps (common/heatmaps.ts): per click, the element's stable selector path, its short
// visible text (masked), where in its box and on the page; per page view, each new tenth of
// the page seen. rrweb's own click carries only a node id, which means nothing across visits.
// Written tightly: every byte counts against the tracker's weight budget.
import { maskText } from '../../common/scrub.js';

type Add = (tag: string, payload: object) => void;

const clamp = (v: number) => Math.min(1e6, Math.max(0, Math.round(v))) || 0;
const share = (v: number) => Math.min(1, Math.max(0, Math.round(v * 1e3) / 1e3)) || 0;

/** Up to 8 steps to the nearest id: tag, the first short data attribute, else its place among its kind. */
function selector(el: Element | null): string {
  const parts: string[] = [];
  for (; el && parts.length < 8; el = el.parentElement) {
    if (el.id) {
      parts.unshift('#' + CSS.escape(el.id));
      break;
    }
    const data = [...el.attributes].find((a) => a.name.startsWith('data-') && a.value.length < 40);
    let part = el.localName;
    if (data) part += `[${data.name}="${CSS.escape(data.value)}"]`;
    else {
      let n = 1;
      for (let s = el.previousElementSibling; s; s = s.previousElementSibling) n += +(s.localName == part);
      if (n > 1) part += `:nth-of-type(${n})`;
    }
    parts.unshift(part);
    if (part == 'body') break;
  }
  return parts.join('>').slice(0, 500);
}

/** `hidden`: whether an element's text may not leave the page (recorder.ts: strict, blocked or masked). */
export function heat(add: Add, hidden = (el: Element) => !!el.closest('.tapedeck-mask,.tapedeck-block')): void {
  let page = '';
  let reached = -1;
  const root = document.documentElement;
  const view = () => {
    const h = root.scrollHeight;
    const d = Math.min(100, Math.floor(((scrollY + innerHeight) / Math.max(1, h)) * 10) * 10);
    const p = maskText(location.pathname.slice(0, 300));
    const v = p != page;
    if (v) {
      page = p;
      reached = -1;
    }
    if (d > reached) {
      reached = d;
      add('scroll', { p, d, w: clamp(innerWidth), h: clamp(h), ...(v && { v: 1 }) });
    }
  };
  view();
  addEventListener('scroll', view, { passive: true });
  addEventListener(
    'click',
    (e) => {
      view();
      let el = e.target as Element;
      if (!el?.closest) return;
      el = el.closest('a,button,input,select,textarea,label,[role],[onclick]') || el;
      const r = el.getBoundingClientRect();
      // Named as common/element-names.ts names it: its label, else its words, alt text or title.
      const a = (n: string) => el.getAttribute(n) || '';
      const text = hidden(el) ? '' : a('aria-label') || (el as HTMLElement).innerText || a('alt') || a('title');
      add('click', {
        p: page,
        s: maskText(selector(el)),
        t: maskText(text.trim().replace(/\s+/g, ' ').slice(0, 60)).slice(0, 60),
        fx: share((e.clientX - r.left) / r.width),
        fy: share((e.clientY - r.top) / r.height),
        x: clamp(e.pageX),
        y: clamp(e.pageY),
        w: clamp(innerWidth),
        h: clamp(root.scrollHeight),
      });
    },
    true,
  );
}
