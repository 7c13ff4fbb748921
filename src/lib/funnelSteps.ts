import type { FunnelStep } from '../../common/funnels.js';

// The New funnel form's steps, one a line: `click: …` (an element's selector path or its text),
// `event: …` (a custom event's name), anything else a page (a path, * for any characters). The
// same words label the steps of a funnel's table, so what is shown can be typed again.

const KINDS = ['click', 'event'] as const;

/** The steps of the form's text, blank lines left out. */
export function parseSteps(text: string): FunnelStep[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const kind = KINDS.find((k) => line.toLowerCase().startsWith(`${k}:`));
      const value = kind ? line.slice(kind.length + 1).trim() : line;
      return kind === 'click' ? { click: value } : kind === 'event' ? { event: value } : { page: value };
    });
}

/** A step as the form takes it. */
export const stepLabel = (step: FunnelStep): string => ('page' in step ? step.page : 'click' in step ? `click: ${step.click}` : `event: ${step.event}`);
