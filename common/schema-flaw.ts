import type { TSchema } from 'typebox';

// Validation errors in words: the field named as a reader writes it ("events[3].type") and what
// it must be, so a refusal says which field is wrong instead of quoting a JSON-schema keyword.

/** "events[3].type" for the JSON pointer "/events/3/type". */
export const fieldName = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');

interface SchemaNode {
  type?: string;
  const?: unknown;
  anyOf?: SchemaNode[];
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  reason?: string;
}

/** What a schema node accepts, in words: "text or null", "a whole number", "a list". */
export function expectedValue(node: SchemaNode): string {
  if (node.anyOf) return node.anyOf.map(expectedValue).join(' or ');
  if ('const' in node) return JSON.stringify(node.const);
  switch (node.type) {
    case 'string':
      if (node.maxLength === undefined) return 'text';
      return node.minLength ? `text of ${node.minLength} to ${node.maxLength} characters` : `text of at most ${node.maxLength} characters`;
    case 'number':
      return 'a number';
    case 'integer':
      return 'a whole number';
    case 'boolean':
      return 'true or false';
    case 'null':
      return 'null';
    case 'array':
      return node.minItems ? `a list of at least ${node.minItems}` : 'a list';
    case 'object':
      return 'an object';
    default:
      return 'well formed';
  }
}

/** The schema node a path ("#/properties/a/anyOf/0") leads to, as the field's whole (a union, not one of its branches). */
function nodeAt(root: TSchema, schemaPath: string): SchemaNode | undefined {
  const parts = schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean);
  // An error inside one branch of a union is about the field, which must match the union.
  while (parts.length >= 2 && parts.at(-2) === 'anyOf') parts.splice(-2);
  let node: unknown = root;
  for (const part of parts) node = (node as Record<string, unknown> | undefined)?.[part];
  return node as SchemaNode | undefined;
}

/** The part of a typebox validation error a flaw is told from. */
export interface SchemaError {
  schemaPath: string;
  instancePath: string;
  params: unknown;
  message: string;
}

/**
 * The first error as a sentence: "session.userAgent must be text or null", "session.country is
 * missing", or the field's own `reason` where its schema gives one. `at` is where `root` sits in
 * the whole value (a JSON pointer, "/events/3"), for a part checked by itself.
 */
export function describeSchemaError(root: TSchema, error: SchemaError, at = ''): string {
  const missing = (error.params as { requiredProperties?: string[] } | undefined)?.requiredProperties?.[0];
  if (missing) return `${fieldName(`${at}${error.instancePath}/${missing}`)} is missing`;
  const node = nodeAt(root, error.schemaPath);
  const field = fieldName(`${at}${error.instancePath}`) || 'the value';
  if (!node) return `${field} ${error.message}`;
  return `${field} ${node.reason ?? `must be ${expectedValue(node)}`}`;
}
/** The `key` annotation of the deepest node below the root on a schema path ("#/properties/a/anyOf/0") that has one. */
export function annotationAt(schema: unknown, schemaPath: string, key: 'reason' | 'missing' = 'reason'): string | undefined {
  let node = schema;
  let found: string | undefined;
  for (const part of schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    node = (node as Record<string, unknown> | undefined)?.[part];
    const here = (node as Record<string, unknown> | undefined)?.[key];
    if (typeof here === 'string') found = here;
  }
  return found;
}
