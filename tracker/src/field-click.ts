// Dead clicks (common/session-facts.ts) spare clicks into text fields: a field answers with its
// caret, which no recording shows, and what is typed there is recorded later. Only the page can
// tell a field from a button (in Chromium both take the focus on mousedown), so rrweb's own click
// event says so here: `field: 1`, exact for the node clicked, where the server would need the
// whole DOM to know. Written tightly: every byte counts against the tracker's weight budget.
import { record } from '@rrweb/record';

// Input types that take no typing: a click on them is judged like a button's.
const NOT_TEXT = /^(button|submit|reset|image|checkbox|radio|file|range|color|hidden)$/;

/** Whether typing goes into the element: a text-like input, a textarea, a select, editable content, or a label of one. */
function textField(el: Element | null | undefined): boolean {
  if (!el || el.nodeType != 1) return false;
  const label = el.closest('label') as HTMLLabelElement | null;
  const control = label?.control;
  if (control && control != el && textField(control)) return true;
  const tag = el.localName;
  return tag == 'textarea' || tag == 'select' || (tag == 'input' && !NOT_TEXT.test((el as HTMLInputElement).type)) || !!(el as HTMLElement).isContentEditable;
}

/** Whether the event is rrweb's click on anything but a text field; a click on one is marked `field: 1`. */
export function plainClick(event: { type: number; data: unknown }): boolean {
  const data = event.data as { source?: number; type?: number; id?: number; field?: 1 };
  if (event.type != 3 || data.source != 2 || data.type != 2) return false;
  if (!textField(record.mirror.getNode(data.id ?? -1) as Element | null)) return true;
  data.field = 1;
  return false;
}
