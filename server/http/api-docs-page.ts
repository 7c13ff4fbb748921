import crypto from 'node:crypto';
import { escapeHtml } from './html.js';
import { types as typesOf, type SchemaNode } from './input-rules.js';

// The API reference as one server-rendered page (/api/docs), drawn from the OpenAPI document: no
// script at all and one stylesheet allowed by its hash, so it reads under a policy as strict as
// the API's own (no CDN, no inline script, nothing loaded from elsewhere).

type Content = Record<string, { schema?: SchemaNode }>;
type Security = Record<string, string[]>[];

interface Operation {
  summary?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: SchemaNode }[];
  requestBody?: { content: Content };
  responses?: Record<string, { description?: string; content?: Content }>;
  security?: Security;
}

/** The parts of an OpenAPI 3.1 document the page shows. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, SchemaNode>; securitySchemes?: Record<string, { description?: string }> };
  security?: Security;
}

const STYLESHEET = `body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:64rem;padding:1rem 1.5rem 4rem;color:#1f2328;background:#fff}
a{color:#0b57d0}code,pre{font:13px/1.45 ui-monospace,Menlo,Consolas,monospace}
pre{background:#f6f8fa;border:1px solid #d8dee4;border-radius:6px;padding:.6rem .8rem;overflow-x:auto}
nav ul{columns:3 12rem;padding-left:1.2rem}section{border-top:2px solid #d8dee4;margin-top:2rem}
article{border:1px solid #d8dee4;border-radius:8px;padding:.4rem 1rem;margin:1rem 0}
h3{font-size:1rem;margin:.5rem 0;word-break:break-all}h4{font-size:.9rem;margin:.8rem 0 .3rem}
.method{display:inline-block;min-width:4.5rem;font:700 12px/1.8 ui-monospace,monospace;text-align:center;border-radius:4px;color:#fff;background:#59636e;margin-right:.5rem}
.get{background:#1a7f37}.post{background:#0b57d0}.put,.patch{background:#9a6700}.delete{background:#cf222e}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #d8dee4;padding:.25rem .5rem;text-align:left;vertical-align:top}
td pre{margin:0;border:0;padding:0;background:none;white-space:pre-wrap;overflow-wrap:anywhere}.auth{color:#59636e}summary{cursor:pointer}`;

/** The page's own policy: its stylesheet by hash, nothing else loads, nothing runs, nothing frames it. */
export const DOCS_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${crypto.createHash('sha256').update(STYLESHEET).digest('base64')}'`,
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** How far nested schemas are drawn: deeper parts show as "…" (a cycle through $ref stops there too). */
const MAX_DEPTH = 12;

/** "1–200 characters", "at most 200 characters", "at least 0"; nothing without either bound. */
function bounds(min: number | undefined, max: number | undefined, unit = ''): string[] {
  if (min === undefined) return max === undefined ? [] : [`at most ${max}${unit}`];
  return [max === undefined ? `at least ${min}${unit}` : `${min}–${max}${unit}`];
}

/** A scalar's constraints, as "(0–200 characters, email)". */
function constraints(schema: SchemaNode): string {
  const parts = [
    ...(schema.format ? [schema.format] : []),
    ...bounds(schema.minLength, schema.maxLength, ' characters'),
    ...bounds(schema.minimum, schema.maximum),
    ...bounds(schema.minItems, schema.maxItems, ' items'),
    ...(schema.pattern ? [`pattern ${schema.pattern}`] : []),
  ];
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** A schema in a short TypeScript-like notation, `{ name: string (1–200 characters); tags?: string[] }`, indented. */
function schemaText(schema: SchemaNode | boolean, refs: Record<string, SchemaNode>, indent = '', depth = 0): string {
  // JSON Schema's `true` takes anything, `false` nothing.
  if (typeof schema === 'boolean') return schema ? 'any' : 'never';
  if (depth > MAX_DEPTH) return '…';
  const next = (child: SchemaNode | boolean, at = indent) => schemaText(child, refs, at, depth + 1);
  if (schema.$ref) {
    const target = refs[schema.$ref.split('/').pop() ?? ''];
    return target ? next(target) : schema.$ref;
  }
  if ('const' in schema) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.map((member) => next(member)).join(' | ');
  if (schema.allOf) return schema.allOf.map((member) => next(member)).join(' & ');
  const types = typesOf(schema);
  if (!types.length) return schema.properties ? objectText(schema, next, indent) : 'any';
  return types
    .map((type) => {
      if (type === 'object') return objectText(schema, next, indent);
      if (type === 'array') {
        // An array of items' schemas is a tuple: [string, integer].
        const items = Array.isArray(schema.items)
          ? `[${schema.items.map((item) => next(item)).join(', ')}]`
          : schema.items === undefined
            ? 'any'
            : next(schema.items);
        return `${/^\w+$/.test(items) ? `${items}[]` : `Array<${items}>`}${constraints(schema)}`;
      }
      return `${type}${constraints(schema)}`;
    })
    .join(' | ');
}

function objectText(schema: SchemaNode, next: (child: SchemaNode | boolean, at?: string) => string, indent: string): string {
  const inner = `${indent}  `;
  const required = new Set(schema.required ?? []);
  const lines = Object.entries(schema.properties ?? {}).map(([name, child]) => `${inner}${name}${required.has(name) ? '' : '?'}: ${next(child, inner)}`);
  if (typeof schema.additionalProperties === 'object') lines.push(`${inner}[name: string]: ${next(schema.additionalProperties, inner)}`);
  return lines.length ? `{\n${lines.join('\n')}\n${indent}}` : 'object';
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every operation of the document with its path, grouped by its first tag, in the document's order. */
function byTag(doc: OpenApiDocument): Map<string, { method: string; path: string; operation: Operation }[]> {
  const groups = new Map<string, { method: string; path: string; operation: Operation }[]>();
  for (const [path, item] of Object.entries(doc.paths))
    for (const method of METHODS.filter((m) => item[m])) {
      const operation = item[method];
      const tag = operation.tags?.[0] ?? 'other';
      groups.set(tag, [...(groups.get(tag) ?? []), { method, path, operation }]);
    }
  return groups;
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const schemaBlock = (schema: SchemaNode | undefined, refs: Record<string, SchemaNode>) =>
  schema ? `<details><summary>Schema</summary><pre>${escapeHtml(schemaText(schema, refs))}</pre></details>` : '';

function contentHtml(content: Content | undefined, refs: Record<string, SchemaNode>): string {
  return Object.entries(content ?? {})
    .map(([type, media]) => `<p><code>${escapeHtml(type)}</code></p>${schemaBlock(media.schema, refs)}`)
    .join('');
}

function parametersHtml(operation: Operation, refs: Record<string, SchemaNode>): string {
  if (!operation.parameters?.length) return '';
  const rows = operation.parameters.map(
    (p) =>
      `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td><td><pre>${escapeHtml(p.schema ? schemaText(p.schema, refs) : 'any')}</pre></td></tr>`,
  );
  return `<h4>Parameters</h4><table><thead><tr><th>name</th><th>in</th><th>required</th><th>schema</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function securityText(security: Security | undefined): string {
  if (!security?.length) return 'Public: no sign-in needed.';
  return `Needs: ${security.map((requirement) => Object.keys(requirement).join(' and ')).join(' or ')}.`;
}

function operationHtml(method: string, path: string, operation: Operation, doc: OpenApiDocument): string {
  const refs = doc.components?.schemas ?? {};
  const responses = Object.entries(operation.responses ?? {}).map(
    ([status, response]) =>
      `<dt><code>${escapeHtml(status)}</code> ${escapeHtml(response.description ?? '')}</dt><dd>${contentHtml(response.content, refs)}</dd>`,
  );
  return `<article>
<h3><span class="method ${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span><code>${escapeHtml(path)}</code></h3>
<p>${escapeHtml(operation.summary ?? '')}</p>
<p class="auth">${escapeHtml(securityText(operation.security ?? doc.security))}</p>
${parametersHtml(operation, refs)}
${operation.requestBody ? `<h4>Request body</h4>${contentHtml(operation.requestBody.content, refs)}` : ''}
<h4>Responses</h4><dl>${responses.join('')}</dl>
</article>`;
}

function schemesHtml(doc: OpenApiDocument): string {
  const schemes = Object.entries(doc.components?.securitySchemes ?? {});
  if (!schemes.length) return '';
  const items = schemes.map(([name, scheme]) => `<li><code>${escapeHtml(name)}</code>: ${escapeHtml(scheme.description ?? '')}</li>`);
  return `<h2>Authentication</h2><ul>${items.join('')}</ul>`;
}

/** The reference page for a document; `documentUrl` is where the document itself is served. */
export function apiDocsPage(doc: OpenApiDocument, documentUrl: string): string {
  const groups = byTag(doc);
  const toc = [...groups].map(([tag, ops]) => `<li><a href="#area-${slug(tag)}">${escapeHtml(tag)}</a> (${ops.length})</li>`);
  const sections = [...groups].map(
    ([tag, ops]) =>
      `<section id="area-${slug(tag)}"><h2>${escapeHtml(tag)}</h2>\n${ops.map(({ method, path, operation }) => operationHtml(method, path, operation, doc)).join('\n')}</section>`,
  );
  const title = `${doc.info.title} API reference`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLESHEET}</style>
</head>
<body>
<header>
<h1>${escapeHtml(title)} <small>${escapeHtml(doc.info.version)}</small></h1>
<p>${escapeHtml(doc.info.description ?? '')}</p>
<p>The OpenAPI ${escapeHtml(doc.openapi)} document: <a href="${escapeHtml(documentUrl)}">${escapeHtml(documentUrl)}</a>.</p>
${schemesHtml(doc)}
<nav><h2>Areas</h2><ul>${toc.join('')}</ul></nav>
</header>
<main>
${sections.join('\n')}
</main>
</body>
</html>
`;
}
