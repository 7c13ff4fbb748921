// Privacy rules on top of rrweb's masking: the visitor's choice first, then a pass over every
// event for what rrweb itself leaves readable.

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

// rrweb's EventType.FullSnapshot, EventType.IncrementalSnapshot and IncrementalSource.Mutation,
// as plain numbers the minifier inlines: importing @rrweb/types' enum objects would add their
// bytes to every recorded page (tests/unit/tracker/privacy.test.ts checks they match).
export const FULL_SNAPSHOT = 2;
export const INCREMENTAL_SNAPSHOT = 3;
export const MUTATION = 0;

const stars = (value: unknown) => (typeof value === 'string' ? '*'.repeat(value.length) : value);

function maskNode(node: SerializedNode): void {
  const attributes = node.attributes;
  if (attributes && 'placeholder' in attributes) attributes.placeholder = stars(attributes.placeholder);
  node.childNodes?.forEach(maskNode);
}

/**
 * Masks `placeholder` attributes (often prefilled with the visitor's own data) in full
 * snapshots and DOM mutations. Values are masked by rrweb.
 */
export function maskEvent(event: { type: number; data: unknown }): void {
  if (event.type === FULL_SNAPSHOT) maskNode((event.data as { node: SerializedNode }).node);
  const data = event.data as MutationData;
  if (event.type !== INCREMENTAL_SNAPSHOT || data.source !== MUTATION) return;
  data.adds?.forEach((add) => maskNode(add.node));
  data.attributes?.forEach((change) => {
    if ('placeholder' in change.attributes) change.attributes.placeholder = stars(change.attributes.placeholder);
  });
}

/** DOM changes a mutation event carries, for the mutation budget. */
export function mutationCount(event: { type: number; data: unknown }): number {
  const data = event.data as MutationData & { removes?: unknown[]; texts?: unknown[] };
  if (event.type !== INCREMENTAL_SNAPSHOT || data.source !== MUTATION) return 0;
  return (data.adds?.length ?? 0) + (data.removes?.length ?? 0) + (data.attributes?.length ?? 0) + (data.texts?.length ?? 0);
}
