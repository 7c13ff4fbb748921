// Privacy rules on top of rrweb's masking: the visitor's choice first, then a pass over every
// event for what rrweb itself leaves readable.
import type { record } from '@rrweb/record';
import { pageUrl } from '../../common/scrub.js';

// Every input is masked whatever its type — hidden, textarea, select, and a password field a
// "show password" toggle turned into type=text — because rrweb checks the tag name ("input")
// before the type wherever it masks (@rrweb/record 2.1.6), so the three tags cover every type
// (tests/e2e/tracker.test.ts types into each kind of field). maskAllInputs must stay off: it
// would replace this list with one by type only.
export const maskInputOptions = { input: true, textarea: true, select: true } as NonNullable<Parameters<typeof record>[0]>['maskInputOptions'];

type Nav = Navigator & { globalPrivacyControl?: boolean; msDoNotTrack?: string };

/** Do-Not-Track or Global Privacy Control: nothing is recorded or sent. */
export function optedOut(nav: Nav, win: { doNotTrack?: string | null }): boolean {
  return nav.globalPrivacyControl === true || nav.doNotTrack === '1' || win.doNotTrack === '1' || nav.msDoNotTrack === '1';
}

interface SerializedNode {
  attributes?: Record<string, unknown>;
  childNodes?: SerializedNode[];
}

interface MutationData {
  source: number;
  adds?: { node: SerializedNode }[];
  attributes?: { attributes: Record<string, unknown> }[];
}

const stars = (value: unknown) => (typeof value === 'string' ? '*'.repeat(value.length) : value);

// Attributes that hold words a visitor reads: masked too under the strict preset.
const WORDS = /^(placeholder|alt|title|label|value|content|aria-(label|description|placeholder|valuetext)|data-.*)$/;

/** `placeholder` masked, and under `strict` every attribute that holds words. */
function maskAttributes(attributes: Record<string, unknown>, strict?: boolean): void {
  for (const name in attributes) if (name === 'placeholder' || (strict && WORDS.test(name))) attributes[name] = stars(attributes[name]);
}

function maskNode(node: SerializedNode, strict?: boolean): void {
  if (node.attributes) maskAttributes(node.attributes, strict);
  node.childNodes?.forEach((child) => maskNode(child, strict));
}

/**
 * Masks `placeholder` attributes (often prefilled with the visitor's own data), and under the
 * strict preset every attribute that holds words (alt, title, aria-label…), in full
 * snapshots (rrweb's EventType.FullSnapshot, 2) and DOM mutations (EventType.IncrementalSnapshot, 3,
 * with IncrementalSource.Mutation, 0). Values are masked by rrweb. Plain numbers: importing
 * @rrweb/types' enum objects costs every recorded page their bytes (the tests build events with them).
 */
export function maskEvent(event: { type: number; data: unknown }, strict?: boolean): void {
  if (event.type === 2) maskNode((event.data as { node: SerializedNode }).node, strict);
  const data = event.data as MutationData;
  if (event.type !== 3 || data.source !== 0) return;
  data.adds?.forEach((add) => maskNode(add.node, strict));
  data.attributes?.forEach((change) => maskAttributes(change.attributes, strict));
}

/**
 * A page's address (rrweb's EventType.Meta, 4) as the campaign keeps it: without query string and
 * fragment, where sites put tokens and e-mails, unless `masked` lists the parameters to hide.
 */
export function maskPage(event: { type: number; data: unknown }, masked?: string[]): void {
  const data = event.data as { href?: string };
  if (event.type === 4 && data.href) data.href = pageUrl(data.href, masked);
}

/** DOM changes a mutation event carries, for the mutation budget. */
export function mutationCount(event: { type: number; data: unknown }): number {
  const data = event.data as MutationData & { removes?: unknown[]; texts?: unknown[] };
  if (event.type !== 3 || data.source !== 0) return 0;
  return (data.adds?.length ?? 0) + (data.removes?.length ?? 0) + (data.attributes?.length ?? 0) + (data.texts?.length ?? 0);
}
