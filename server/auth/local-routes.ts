import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Interaction } from 'oidc-provider';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';
import { Type } from 'typebox';
import { InteractionParams, SignInForm } from '../../common/api/auth.js';
import { LOCAL_CLIENT_ID, LOCAL_MOUNT, type LocalProvider } from './local-provider.js';
import { expiredPage, signInForm } from './local-form.js';
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  SHORT_PASSWORD,
  createAccount,
  findAccount,
  isAccountEmail,
  passwordMatches,
  renameAccount,
  subjectForEmail,
} from './local-accounts.js';
import { perMinute } from './rate.js';
import { minuteLimit } from '../http/rate-limit.js';

const PAGE_SECURITY = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
};

export const WRONG_PASSWORD = 'Wrong email or password.';
/** Open sign-up and no name: a wrong password, or a first sign-in that needs one (the same words either way). */
export const WRONG_OR_NO_NAME = 'Wrong email or password. First time here? Please enter your name.';

type Attempt = (request: FastifyRequest, reply: FastifyReply, key: string) => Promise<void>;

/**
 * Mounts the built-in provider under /oidc: oidc-provider is a Koa app, so its routes are handed
 * the raw request and response. The interaction page (the sign-in form) is ours.
 */
export async function registerLocalProvider(app: FastifyInstance, config: Config, local: LocalProvider): Promise<void> {
  const publicUrl = new URL(config.publicUrl);
  await app.register(async (scope) => {
    // The provider reads request bodies itself: Fastify must leave the stream alone.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const handOver = async (request: FastifyRequest, reply: FastifyReply) => {
      const provider = await local.provider();
      reply.hijack();
      const raw = request.raw as typeof request.raw & { originalUrl?: string };
      raw.originalUrl = raw.url;
      raw.url = (raw.url ?? '/').slice(LOCAL_MOUNT.length) || '/';
      // The provider announces its endpoints under PUBLIC_URL, however it was reached.
      raw.headers['x-forwarded-host'] = publicUrl.host;
      raw.headers['x-forwarded-proto'] = publicUrl.protocol.slice(0, -1);
      await provider.callback()(raw, reply.raw);
    };
    // Each visit of the authorization endpoint stores a sign-in in flight in the database, so it
    // is limited like sign-in's start. The rest is left alone: the server itself calls the token
    // and key endpoints over loopback for every sign-in.
    scope.route({ method: ['GET', 'POST'], url: `${LOCAL_MOUNT}/auth`, config: { rateLimit: perMinute(config.rateLimits.signInPerIp) }, handler: handOver });
    scope.all(`${LOCAL_MOUNT}/*`, handOver);
  });

  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    const path = `${LOCAL_MOUNT}/interaction/:uid`;
    const api = scope.withTypeProvider<TypeBoxTypeProvider>();
    api.get(path, { schema: { params: InteractionParams } }, (request, reply) => showForm(config, local, request, reply));
    // Every attempt counts, so guessing passwords costs a minute per RATE_SIGNIN_PER_IP tries from
    // one address, and per RATE_SIGNIN_PER_ACCOUNT tries at one email from any number of them.
    const perAccount = minuteLimit(app, 'signin-account', config.rateLimits.signInPerAccount);
    api.post(
      path,
      { schema: { params: InteractionParams, body: Type.Union([SignInForm, Type.Null()]) }, config: { rateLimit: perMinute(config.rateLimits.signInPerIp) } },
      (request, reply) => submitForm(config, local, perAccount, request, reply),
    );
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

/** The password was right: the provider signs the account in afresh (a new login every time). */
async function finish(local: LocalProvider, request: FastifyRequest, reply: FastifyReply, interaction: Interaction, accountId: string) {
  const result = { login: { accountId }, consent: { grantId: await grantFor(local, interaction, accountId) } };
  const returnTo = await (await local.provider()).interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
  return reply.redirect(returnTo, 303);
}

const formState = (config: Config, action: string) => ({ action, signupOpen: config.signup === 'open', minPasswordLength: MIN_PASSWORD_LENGTH });

async function showForm(config: Config, local: LocalProvider, request: FastifyRequest, reply: FastifyReply) {
  const interaction = await interactionFor(local, request, reply);
  if (!interaction) return html(reply, 400, expiredPage());
  return html(reply, 200, signInForm(formState(config, request.url)));
}

/**
 * The account for this email and password: an existing one whose password matches, or — while
 * SIGNUP=open — a new one the password is set for. Returns its subject, or a message for the form.
 * A refusal depends on what was typed, never on whether the email has an account (the password
 * is hashed either way), except that open sign-up makes the account of a free email.
 */
async function signInOrSignUp(
  config: Config,
  local: LocalProvider,
  form: { name: string; email: string; password: string },
): Promise<{ subject: string } | { status: number; error: string }> {
  const existing = await findAccount(local.db, form.email);
  const matches = await passwordMatches(existing, form.password);
  if (existing && matches) {
    if (form.name && form.name !== existing.name) await renameAccount(local.db, form.email, form.name);
    return { subject: existing.subject };
  }
  if (config.signup === 'closed') return { status: 401, error: WRONG_PASSWORD };
  if (!form.name) return { status: 401, error: WRONG_OR_NO_NAME };
  if (form.password.length < MIN_PASSWORD_LENGTH) return { status: 400, error: SHORT_PASSWORD };
  if (existing) return { status: 401, error: WRONG_PASSWORD };
  // Two first sign-ins of one email at once: the loser checks its password against the winner's.
  if (!(await createAccount(local.db, { ...form, madeBy: 'signup' }))) return signInOrSignUp(config, local, form);
  return { subject: subjectForEmail(form.email) };
}

async function submitForm(config: Config, local: LocalProvider, perAccount: Attempt, request: FastifyRequest, reply: FastifyReply) {
  const interaction = await interactionFor(local, request, reply);
  if (!interaction) return html(reply, 400, expiredPage());
  const body = (request.body ?? {}) as SignInForm;
  const name = String(body.name ?? '')
    .trim()
    .slice(0, 100);
  const email = String(body.email ?? '')
    .trim()
    .slice(0, 254);
  const password = String(body.password ?? '');
  const again = (status: number, error: string) => html(reply, status, signInForm({ ...formState(config, request.url), name, email, error }));
  if (!isAccountEmail(email)) return again(400, 'Please enter a valid email address.');
  if (!password) return again(400, 'Please enter your password.');
  if (password.length > MAX_PASSWORD_LENGTH) return again(400, `Passwords have at most ${MAX_PASSWORD_LENGTH} characters.`);
  await perAccount(request, reply, subjectForEmail(email));
  const outcome = await signInOrSignUp(config, local, { name, email, password });
  if ('error' in outcome) return again(outcome.status, outcome.error);
  return finish(local, request, reply, interaction, outcome.subject);
}
