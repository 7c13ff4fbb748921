// A campaign's "Elements Never Recorded" selector as ingest can judge it on rrweb's serialised
// nodes: selector lists of compound selectors (a tag or *, #id, .class, [attr], [attr=v] and the
// ~= |= ^= $= *= forms, optional i/s flag) joined by descendant or child combinators. A part of
// the list with other syntax (pseudo-classes, sibling combinators, escapes) is left to the
// tracker, which reads the whole selector with the browser's parser. Matching is linear: each
// node carries, per step of the selector, whether it or an ancestor matched up to there; no
// backtracking, no regular expression made from the selector.

type Operator = '=' | '~=' | '|=' | '^=' | '$=' | '*=';

interface AttributeTest {
  name: string;
  operator?: Operator;
  value?: string;
  caseless?: boolean;
}

interface Compound {
  tag?: string;
  ids: string[];
  classes: string[];
  attributes: AttributeTest[];
}

/** One compound of a complex selector, and how it joins the one before it (null: the first). */
interface Step {
  compound: Compound;
  combinator: ' ' | '>' | null;
  /** The rightmost compound of its complex selector: an element matching here is blocked. */
  last: boolean;
}

export interface BlockSelector {
  steps: Step[];
  /** No step matched: shared, never written to. */
  none: Uint8Array;
}

/** An element as rrweb serialises it (only what matching reads). */
export interface SerialisedElement {
  tagName?: unknown;
  attributes?: Record<string, unknown> | null;
}

const IDENT = /[A-Za-z0-9_\-\u00a0-\uffff]+/y;

class Unsupported extends Error {}

/** A scanner over one part of the selector list. */
class Scanner {
  i = 0;
  constructor(readonly text: string) {}
  get done() {
    return this.i >= this.text.length;
  }
  peek(n = 0) {
    return this.text[this.i + n];
  }
  spaces(): boolean {
    const start = this.i;
    while (!this.done && /\s/.test(this.text[this.i])) this.i++;
    return this.i > start;
  }
  atIdent(): boolean {
    IDENT.lastIndex = this.i;
    return IDENT.test(this.text);
  }
  ident(): string {
    IDENT.lastIndex = this.i;
    const found = IDENT.exec(this.text);
    if (!found) throw new Unsupported();
    this.i = IDENT.lastIndex;
    return found[0];
  }
  expect(char: string) {
    if (this.text[this.i] !== char) throw new Unsupported();
    this.i++;
  }
  quoted(): string {
    const quote = this.text[this.i++];
    const end = this.text.indexOf(quote, this.i);
    if (end < 0) throw new Unsupported();
    const value = this.text.slice(this.i, end);
    if (value.includes('\\')) throw new Unsupported();
    this.i = end + 1;
    return value;
  }
}

function attributeTest(s: Scanner): AttributeTest {
  s.expect('[');
  s.spaces();
  const test: AttributeTest = { name: s.ident().toLowerCase() };
  s.spaces();
  if (s.peek() !== ']') {
    const two = (s.peek() ?? '') + (s.peek(1) ?? '');
    const operator = (['~=', '|=', '^=', '$=', '*='] as const).find((op) => op === two) ?? (s.peek() === '=' ? '=' : undefined);
    if (!operator) throw new Unsupported();
    s.i += operator.length;
    s.spaces();
    test.operator = operator;
    test.value = s.peek() === '"' || s.peek() === "'" ? s.quoted() : s.ident();
    s.spaces();
    if (s.peek() === 'i' || s.peek() === 'I' || s.peek() === 's' || s.peek() === 'S') {
      test.caseless = s.peek().toLowerCase() === 'i';
      s.i++;
      s.spaces();
    }
  }
  s.expect(']');
  return test;
}

function compound(s: Scanner): Compound {
  const c: Compound = { ids: [], classes: [], attributes: [] };
  if (s.peek() === '*') s.i++;
  else if (s.atIdent()) c.tag = s.ident().toLowerCase();
  let any = c.tag !== undefined || s.text[s.i - 1] === '*';
  for (;;) {
    const next = s.peek();
    if (next === '#') {
      s.i++;
      c.ids.push(s.ident());
    } else if (next === '.') {
      s.i++;
      c.classes.push(s.ident());
    } else if (next === '[') c.attributes.push(attributeTest(s));
    else break;
    any = true;
  }
  if (!any) throw new Unsupported();
  return c;
}

/** One complex selector's steps, or Unsupported. */
function complex(text: string): Step[] {
  const s = new Scanner(text.trim());
  const steps: Step[] = [];
  let combinator: Step['combinator'] = null;
  for (;;) {
    steps.push({ compound: compound(s), combinator, last: false });
    const spaced = s.spaces();
    if (s.done) break;
    if (s.peek() === '>') {
      s.i++;
      s.spaces();
      combinator = '>';
    } else if (spaced) combinator = ' ';
    else throw new Unsupported();
  }
  steps[steps.length - 1].last = true;
  return steps;
}

/** The parts of a selector list, split at commas outside brackets, quotes and parentheses. */
function listParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim()).filter(Boolean);
}

/** The selector's parts ingest can judge; those it cannot are left to the tracker. */
export function blockSelector(text: string): BlockSelector {
  const steps: Step[] = [];
  for (const part of listParts(text)) {
    try {
      steps.push(...complex(part));
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
    }
  }
  return { steps, none: new Uint8Array(steps.length) };
}

const attributeValue = (element: SerialisedElement, name: string): string | undefined => {
  const attributes = element.attributes;
  if (!attributes || typeof attributes !== 'object' || !Object.hasOwn(attributes, name)) return undefined;
  const value = attributes[name];
  return value === null || value === undefined || value === false ? undefined : String(value);
};

function attributeMatches(element: SerialisedElement, test: AttributeTest): boolean {
  let actual = attributeValue(element, test.name);
  if (actual === undefined) return false;
  if (!test.operator) return true;
  let wanted = test.value ?? '';
  if (test.caseless) {
    actual = actual.toLowerCase();
    wanted = wanted.toLowerCase();
  }
  switch (test.operator) {
    case '=':
      return actual === wanted;
    case '~=':
      return wanted !== '' && actual.split(/\s+/).includes(wanted);
    case '|=':
      return actual === wanted || actual.startsWith(wanted + '-');
    case '^=':
      return wanted !== '' && actual.startsWith(wanted);
    case '$=':
      return wanted !== '' && actual.endsWith(wanted);
    case '*=':
      return wanted !== '' && actual.includes(wanted);
  }
}

/** An element as the compounds read it: its class names split once, when a compound asks. */
class Judged {
  #classes?: string[];
  constructor(readonly element: SerialisedElement) {}
  get classes(): string[] {
    return (this.#classes ??= (attributeValue(this.element, 'class') ?? '').split(/\s+/));
  }
}

function compoundMatches(judged: Judged, c: Compound): boolean {
  const element = judged.element;
  if (c.tag !== undefined && String(element.tagName ?? '').toLowerCase() !== c.tag) return false;
  if (c.ids.length && !c.ids.every((id) => attributeValue(element, 'id') === id)) return false;
  if (c.classes.length && !c.classes.every((name) => judged.classes.includes(name))) return false;
  return c.attributes.every((test) => attributeMatches(element, test));
}

/** What an element's children inherit: per step, whether the parent or any ancestor matched up to it. */
export interface Ancestry {
  parent: Uint8Array;
  any: Uint8Array;
}

export const rootAncestry = (selector: BlockSelector): Ancestry => ({ parent: selector.none, any: selector.none });

/** Whether the element is blocked, and what its children inherit. */
export function judgeElement(selector: BlockSelector, element: SerialisedElement, ancestry: Ancestry): { blocked: boolean; children: Ancestry } {
  const { steps } = selector;
  const judged = new Judged(element);
  let here: Uint8Array | undefined;
  let blocked = false;
  for (let k = 0; k < steps.length; k++) {
    const step = steps[k];
    const joined = step.combinator === null || (step.combinator === '>' ? ancestry.parent[k - 1] : ancestry.any[k - 1]);
    if (joined && compoundMatches(judged, step.compound)) {
      (here ??= new Uint8Array(steps.length))[k] = 1;
      if (step.last) blocked = true;
    }
  }
  // Most elements match no step: their children share the ancestors' state (never written to).
  if (!here) return { blocked, children: { parent: selector.none, any: ancestry.any } };
  const any = new Uint8Array(steps.length);
  for (let k = 0; k < steps.length; k++) any[k] = here[k] | ancestry.any[k];
  return { blocked, children: { parent: here, any } };
}
