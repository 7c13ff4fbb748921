import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Interaction } from 'oidc-provider';
import type { Config } from '../config.js';
import { LOCAL_CLIENT_ID, LOCAL_MOUNT, type LocalProvider } from './local-provider.js';
import { expiredPage, signInForm } from './local-form.js';

const PAGE_SECURITY = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
};

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

interface FormBody {
  name?: string;
  email?: string;
}

/**
 * Mounts the built-in provider under /oidc: oidc-provider is a Koa app, so its routes are handed
 * the raw request and response. The interaction page (the name/email form) is ours.
 */
export async function registerLocalProvider(app: FastifyInstance, config: Config, local: LocalProvider): Promise<void> {
  const publicUrl = new URL(config.publicUrl);
  await app.register(async (scope) => {
    // The provider reads request bodies itself: Fastify must leave the stream alone.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.all(`${LOCAL_MOUNT}/*`, async (request, reply) => {
      const provider = await local.provider();
      reply.hijack();
      const raw = request.raw as typeof request.raw & { originalUrl?: string };
      raw.originalUrl = raw.url;
      raw.url = (raw.url ?? '/').slice(LOCAL_MOUNT.length) || '/';
      // The provider announces its endpoints under PUBLIC_URL, however it was reached.
      raw.headers['x-forwarded-host'] = publicUrl.host;
      raw.headers['x-forwarded-proto'] = publicUrl.protocol.slice(0, -1);
      await provider.callback()(raw, reply.raw);
    });
  });

  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    const path = `${LOCAL_MOUNT}/interaction/:uid`;
    scope.get(path, (request, reply) => showForm(local, request, reply));
    scope.post(path, (request, reply) => submitForm(local, request, reply));
  });
}

const html = (reply: FastifyReply, status: number, page: string) => reply.status(status).headers(PAGE_SECURITY).type('text/html; charset=utf-8').send(page);

async function interactionFor(local: LocalProvider, request: FastifyRequest, reply: FastifyReply): Promise<Interaction | null> {
  try {
    const interaction = await (await local.provider()).interactionDetails(request.raw, reply.raw);
    const { uid } = request.params as { uid: string };
    return interaction.uid === uid ? interaction : null;
  } catch {
    return null;
  }
}

/** Our own client needs no consent screen: the grant covers the scopes it asked for. */
async function grantFor(local: LocalProvider, interaction: Interaction, accountId: string): Promise<string> {
  const provider = await local.provider();
  const grant = new provider.Grant({ accountId, clientId: interaction.params.client_id ?? LOCAL_CLIENT_ID });
  grant.addOIDCScope(String(interaction.params.scope ?? 'openid'));
  return grant.save();
}

async function finish(local: LocalProvider, request: FastifyRequest, reply: FastifyReply, interaction: Interaction, accountId: string) {
  const consent = { grantId: await grantFor(local, interaction, accountId) };
  const result = interaction.prompt.name === 'login' ? { login: { accountId }, consent } : { consent };
  const returnTo = await (await local.provider()).interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
  return reply.redirect(returnTo, 303);
}

async function showForm(local: LocalProvider, request: FastifyRequest, reply: FastifyReply) {
  const interaction = await interactionFor(local, request, reply);
  if (!interaction) return html(reply, 400, expiredPage());
  const accountId = interaction.session?.accountId;
  if (interaction.prompt.name !== 'login' && accountId) return finish(local, request, reply, interaction, accountId);
  return html(reply, 200, signInForm({ action: request.url }));
}

async function submitForm(local: LocalProvider, request: FastifyRequest, reply: FastifyReply) {
  const interaction = await interactionFor(local, request, reply);
  if (!interaction) return html(reply, 400, expiredPage());
  const body = (request.body ?? {}) as FormBody;
  const name = String(body.name ?? '').trim().slice(0, 100);
  const email = String(body.email ?? '').trim().slice(0, 254);
  const error = !name ? 'Please enter your name.' : !EMAIL.test(email) ? 'Please enter a valid email address.' : undefined;
  if (error) return html(reply, 400, signInForm({ action: request.url, name, email, error }));
  const accountId = local.remember({ name, email });
  return finish(local, request, reply, interaction, accountId);
}
