// Schemas whose refusals read as sentences: a schema node may carry `reason` (the words a
// refusal gives when that node is what failed) and `missing` (the words when a required field
// is left out). These read them back from a TypeBox error's schema path.

/** "events[3].type" for the JSON pointer "/events/3/type". */
export const fieldName = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');

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
