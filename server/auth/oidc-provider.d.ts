// The parts of oidc-provider (v8, no bundled types) that the built-in sign-in provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>> | Record<string, unknown>;
  }

  export interface Prompt {
    name: string;
    reasons: string[];
    details: Record<string, unknown>;
  }

  export interface Interaction {
    uid: string;
    prompt: Prompt;
    params: Record<string, unknown> & { client_id?: string; scope?: string };
    session?: { accountId?: string };
    grantId?: string;
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export interface Configuration {
    adapter?: unknown;
    clients?: Array<Record<string, unknown>>;
    jwks?: { keys: Array<Record<string, unknown>> };
    cookies?: { keys?: string[]; long?: Record<string, unknown>; short?: Record<string, unknown> };
    claims?: Record<string, string[]>;
    pkce?: { required?: () => boolean };
    responseTypes?: string[];
    features?: Record<string, { enabled: boolean } & Record<string, unknown>>;
    interactions?: { policy?: Policy; url?: (ctx: unknown, interaction: Interaction) => string | Promise<string> };
    findAccount?: (ctx: unknown, sub: string) => Promise<Account | undefined>;
    conformIdTokenClaims?: boolean;
    ttl?: Record<string, number | ((ctx: unknown, model: { loginTs?: number }) => number)>;
    renderError?: (ctx: { type: string; body: string }, out: Record<string, string>, error: Error) => void | Promise<void>;
  }

  /** The part of an authorization request a policy check looks at. */
  export interface CheckContext {
    oidc: { result?: InteractionResult };
  }

  export class Check {
    constructor(reason: string, description: string, error: string, check: (ctx: CheckContext) => boolean | Promise<boolean>);
  }

  export interface Policy extends Array<{ name: string; checks: Check[] }> {
    get(name: string): { name: string; checks: Check[] } | undefined;
  }

  export const interactionPolicy: { Check: typeof Check; base(): Policy };

  export interface InteractionResult {
    login?: { accountId: string };
    consent?: { grantId: string };
    error?: string;
    error_description?: string;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    proxy: boolean;
    readonly issuer: string;
    Grant: new (properties: { accountId: string; clientId: string }) => Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionResult(req: IncomingMessage, res: ServerResponse, result: InteractionResult, options?: { mergeWithLastSubmission?: boolean }): Promise<string>;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
