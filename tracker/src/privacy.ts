// Privacy rules on top of rrweb's masking: the visitor's choice first, then a pass over every
// event for what rrweb itself leaves readable.
import { pageUrl } from '../../common/scrub.js';

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

function maskNode(node: SerializedNode): void {
  const attributes = node.attributes;
  if (attributes && 'placeholder' in attributes) attributes.placeholder = stars(attributes.placeholder);
  node.childNodes?.forEach(maskNode);
}

/**
 * Masks `placeholder` attributes (often prefilled with the visitor's own data) in full
 * snapshots (rrweb's EventType.FullSnapshot, 2) and DOM mutations (EventType.IncrementalSnapshot, 3,
 * with IncrementalSource.Mutation, 0). Values are masked by rrweb. Plain numbers: importing
 * @rrweb/types' enum objects costs every recorded page their bytes (the tests build events with them).
 */
export function maskEvent(event: { type: number; data: unknown }): void {
  if (event.type === 2) maskNode((event.data as { node: SerializedNode }).node);
  const data = event.data as MutationData;
  if (event.type !== 3 || data.source !== 0) return;
  data.adds?.forEach((add) => maskNode(add.node));
  data.attributes?.forEach((change) => {
    if ('placeholder' in change.attributes) change.attributes.placeholder = stars(change.attributes.placeholder);
  });
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
