// Shared by the tests that walk every route the app registers (server/http/input-rules.ts lists
// them): a server with an owner of one of each thing a route names, and a route's path with
// that owner's real ids filled in, so a request reaches the route's handler.
import { accessClaims, userSession } from '../helpers/auth.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createCampaign, info, pageEvents, postBatch, sessionId } from './ingest-support.js';
import { PEOPLE_TAGS } from '../../common/people.js';
import type { ApiRoute } from '../../server/http/input-rules.js';

export const VISITOR = 'walker@example.test';

export interface OwnedThings {
  server: TestServer;
  owner: Awaited<ReturnType<typeof userSession>>;
  /** A value for each path parameter name, the owner's own (a campaign, a session, a funnel…). */
  ids: Record<string, string>;
}

async function send(server: TestServer, headers: Record<string, string>, method: string, path: string, body: unknown) {
  const res = await fetch(`${server.url}${path}`, { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** A fresh server and an owner with a campaign, a recorded and identified session, a funnel, a segment, a note, a share, page patterns, an API key and a webhook with a delivery. */
export async function ownerOfEverything(env: Record<string, string> = {}): Promise<OwnedThings> {
  // The walk sends many requests from one address: sign-in's per-address limit is not what it tests.
  // A webhook to nowhere on loopback (port 9, discard): its deliveries fail, which no walk reads.
  const server = await startServer({ RATE_SIGNIN_PER_IP: '100000', RATE_REFRESH_PER_IP: '100000', WEBHOOK_ALLOW_PRIVATE: '1', ...env });
  const owner = await userSession(server, 'Walker Owner');
  const campaign = await createCampaign(server, owner.headers, 'Every route', 'shop.example.com');
  const session = sessionId();
  const events = [...pageEvents(), { type: 5, data: { tag: PEOPLE_TAGS.identify, payload: { userId: VISITOR } }, timestamp: Date.now() - 500 }];
  const batch = await postBatch(server, campaign.id, { sessionId: session, seq: 0, info: info(), events });
  if (batch.status !== 200) throw new Error(`batch: ${batch.status} ${await batch.text()}`);
  const c = `/api/v1/funnels/${campaign.id}`;
  const funnel = await send(server, owner.headers, 'POST', c, { name: 'Checkout', steps: [{ page: '/cart' }] });
  const segment = await send(server, owner.headers, 'POST', `/api/v1/segments/${campaign.id}`, { name: 'Humans', filters: { type: 'human' } });
  const note = await send(server, owner.headers, 'POST', `/api/v1/notes/${campaign.id}/${session}`, { text: 'Look here', timestamp: Date.now() - 1000 });
  const share = await send(server, owner.headers, 'POST', `/api/v1/replay/share/${campaign.id}/${session}`, { expiresIn: '1h' });
  await send(server, owner.headers, 'PUT', `/api/v1/heatmaps/${campaign.id}/patterns`, { patterns: ['/cart'] });
  const webhook = (await send(server, owner.headers, 'POST', '/api/v1/webhooks', { url: 'http://127.0.0.1:9/walk', events: ['session.errors'] })).data as {
    id: string;
  };
  const delivery = (await send(server, owner.headers, 'POST', `/api/v1/webhooks/${webhook.id}/test`, {})).data as { id: string };
  // A workspace of the owner's with a member in it and an invite pending.
  const workspace = (await send(server, owner.headers, 'POST', '/api/v1/workspaces', { name: 'Walkers' })).data as { id: string };
  const member = await userSession(server, 'Walker Member');
  const joining = (
    await send(server, owner.headers, 'POST', `/api/v1/workspaces/${workspace.id}/invites`, { email: 'walker.member@example.test', role: 'member' })
  ).data as { url: string };
  await send(server, member.headers, 'POST', `/api/v1/invites/${joining.url.split('/invite/')[1]}/accept`, {});
  const invite = (await send(server, owner.headers, 'POST', `/api/v1/workspaces/${workspace.id}/invites`, { email: 'someone@example.test', role: 'viewer' }))
    .data as {
    id: string;
    url: string;
  };
  // An API key of the owner's personal workspace (the one a key is made in without workspace_id).
  const apiKey = (await send(server, owner.headers, 'POST', '/api/v1/api-keys', { name: 'Walker', scopes: ['sessions:read'] })).data as { id: string };
  const ids = {
    campaignId: campaign.id,
    id: campaign.id,
    sessionId: session,
    funnelId: String(funnel.id),
    segmentId: String(segment.id),
    noteId: String(note.id),
    token: String(share.token),
    userId: VISITOR,
    signInId: String(accessClaims(owner).sid),
    workspaceId: workspace.id,
    memberId: member.userId,
    inviteId: invite.id,
    inviteToken: invite.url.split('/invite/')[1],
    apiKeyId: apiKey.id,
    webhookId: webhook.id,
    deliveryId: delivery.id,
  };
  return { server, owner, ids };
}

/** The owner's own value for each of the route's path parameters (the sign-in's id for the account's sign-ins). */
export function paramsOf(route: Pick<ApiRoute, 'url'>, ids: Record<string, string>): Record<string, string> {
  const names = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]);
  return Object.fromEntries(names.map((name) => [name, ids[name === 'id' && route.url.includes('/sign-ins/') ? 'signInId' : name]]));
}

/** The route's path with `values` (by parameter name) in its parameters; the owner's own where `values` has none. */
export function pathOf(route: Pick<ApiRoute, 'url'>, ids: Record<string, string>, values: Record<string, string> = {}): string {
  const params = { ...paramsOf(route, ids), ...values };
  return route.url.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name]));
}

export const isWrite = (route: ApiRoute) => !['GET', 'HEAD', 'OPTIONS'].includes(route.method);

/** A JSON schema node, as TypeBox builds them. */
interface Node {
  type?: string;
  const?: unknown;
  enum?: unknown[];
  anyOf?: Node[];
  properties?: Record<string, Node>;
  required?: string[];
  items?: Node;
  minItems?: number;
  minLength?: number;
  minimum?: number;
}

/** Values a field's name tells better than its schema: what the form's rules (domains, end after start) accept. */
const BY_NAME: Record<string, unknown> = {
  domains: 'shop.example.com',
  start_date_time: 1,
  end_date_time: 2e12,
  path: '/cart',
  selector: 'button',
  confirm: 'nobody@example.test',
};

/** The branch of a union a sample takes: the first that is not null. */
const branch = (node: Node): Node => node.anyOf?.find((b) => b.type !== 'null') ?? node;

/** The smallest value the schema accepts (its required fields only), `name` being the field's. */
export function sample(schema: Node, name = ''): unknown {
  const node = branch(schema);
  if (name in BY_NAME) return BY_NAME[name];
  if ('const' in node) return node.const;
  if (node.enum) return node.enum[0];
  switch (node.type) {
    case 'object':
      return Object.fromEntries((node.required ?? []).map((key) => [key, sample(node.properties?.[key] ?? {}, key)]));
    case 'array':
      return Array.from({ length: node.minItems ?? 0 }, () => sample(node.items ?? {}));
    case 'string':
      return 'a'.repeat(Math.max(1, node.minLength ?? 1));
    case 'integer':
    case 'number':
      return Math.max(1, node.minimum ?? 1);
    case 'boolean':
      return true;
    default:
      return null;
  }
}

/** Where a value may be put in what the schema describes: each field, nested, an array's first item. */
export type FieldPath = (string | number)[];

/** Every leaf field of a schema (text, number, true/false, one of a set), nested fields and list items included. */
export function fieldsOf(schema: Node, at: FieldPath = []): FieldPath[] {
  const node = branch(schema);
  if (node.type === 'object' && node.properties) return Object.entries(node.properties).flatMap(([key, child]) => fieldsOf(child, [...at, key]));
  if (node.type === 'array' && node.items) return fieldsOf(node.items, [...at, 0]);
  return [at];
}

/** The schema's sample with `value` at `path` (the objects and lists on the way made as the schema says). */
export function sampleWith(schema: Node, path: FieldPath, value: unknown): unknown {
  const node = branch(schema);
  if (!path.length) return value;
  const [key, ...rest] = path;
  if (typeof key === 'number') return [sampleWith(node.items ?? {}, rest, value)];
  return { ...(sample(node) as object), [key]: sampleWith(node.properties?.[key] ?? {}, rest, value) };
}

/** The type of the field at `path` ("integer", "string"…; the first non-null branch of a union). */
export function typeAt(schema: Node, path: FieldPath): string | undefined {
  const node = branch(schema);
  if (!path.length) return node.type;
  const [key, ...rest] = path;
  return typeAt((typeof key === 'number' ? node.items : node.properties?.[key]) ?? {}, rest);
}

/** The route's request with valid values and the owner's ids, in the workspace `ids.workspaceId` (a workspace_id field names it). */
export function requestOf(route: ApiRoute, ids: Record<string, string>) {
  const inWorkspace = (schema: unknown) => {
    if (!schema) return undefined;
    const node = schema as Node & { minProperties?: number };
    const value = sample(node) as Record<string, unknown>;
    const properties = node.properties ?? {};
    // A change of nothing is refused before anyone's rights are asked: change the first field.
    const [first] = Object.keys(properties);
    if (node.minProperties && !Object.keys(value).length && first) value[first] = sample(properties[first], first);
    return 'workspace_id' in properties ? { ...value, workspace_id: ids.workspaceId } : value;
  };
  const query = inWorkspace(route.schema.querystring);
  const search = query ? new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString() : '';
  return { path: `${pathOf(route, ids)}${search ? `?${search}` : ''}`, body: inWorkspace(route.schema.body) };
}
