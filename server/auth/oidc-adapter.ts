import type { Db } from '../db/index.js';
import type { Executor } from '../db/executor.js';

/** One of the built-in provider's records, as oidc-provider hands it over and asks it back. */
type Payload = Record<string, unknown> & { uid?: string; grantId?: string; userCode?: string; consumed?: number };

const seconds = (ms: number) => Math.floor(ms / 1000);

/** The models revoking a grant takes away (the tokens and codes issued under it). */
const ISSUED_UNDER_GRANT = ['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest'];

/**
 * oidc-provider's storage in our database (the oidc_models table): sign-ins in flight, codes,
 * grants and the provider's sessions. Any server sharing the database can carry on a sign-in
 * another one started, and a restart cancels nothing. One class per database, as the library
 * makes one instance per model name (Interaction, Session, AuthorizationCode, …).
 */
export function databaseAdapter(db: Db) {
  const table = () => db.selectFrom('oidc_models').select(['payload', 'consumed_at', 'expires_at']);
  const usable = (row: { payload: string; consumed_at: number | null; expires_at: number | null } | undefined): Payload | undefined => {
    if (!row || (row.expires_at !== null && row.expires_at <= Date.now())) return undefined;
    const payload = JSON.parse(row.payload) as Payload;
    return row.consumed_at === null ? payload : { ...payload, consumed: seconds(row.consumed_at) };
  };

  return class DatabaseAdapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      const row = {
        payload: JSON.stringify(payload),
        uid: payload.uid ?? null,
        grant_id: payload.grantId ?? null,
        user_code: payload.userCode ?? null,
        expires_at: expiresIn ? Date.now() + expiresIn * 1000 : null,
      };
      await db
        .insertInto('oidc_models')
        .values({ model: this.model, id, ...row, consumed_at: null })
        .onConflict((conflict) => conflict.columns(['model', 'id']).doUpdateSet(row))
        .execute();
    }

    async find(id: string): Promise<Payload | undefined> {
      return usable(await table().where('model', '=', this.model).where('id', '=', id).executeTakeFirst());
    }

    async findByUid(uid: string): Promise<Payload | undefined> {
      return usable(await table().where('model', '=', this.model).where('uid', '=', uid).executeTakeFirst());
    }

    async findByUserCode(userCode: string): Promise<Payload | undefined> {
      return usable(await table().where('model', '=', this.model).where('user_code', '=', userCode).executeTakeFirst());
    }

    async consume(id: string): Promise<void> {
      await db.updateTable('oidc_models').set({ consumed_at: Date.now() }).where('model', '=', this.model).where('id', '=', id).execute();
    }

    async destroy(id: string): Promise<void> {
      await db.deleteFrom('oidc_models').where('model', '=', this.model).where('id', '=', id).execute();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.deleteFrom('oidc_models').where('grant_id', '=', grantId).where('model', 'in', ISSUED_UNDER_GRANT).execute();
    }
  };
}

/**
 * Ends the built-in provider's hold on one account: its sessions, grants, codes and tokens (their
 * JSON names the account). Whoever signs in as it next types the password.
 */
export async function forgetProviderAccount(db: Executor, accountId: string): Promise<void> {
  const candidates = await db.selectFrom('oidc_models').select(['model', 'id', 'payload']).where('payload', 'like', `%${accountId}%`).execute();
  for (const row of candidates) {
    let payload: { accountId?: unknown };
    try {
      payload = JSON.parse(row.payload) as { accountId?: unknown };
    } catch {
      continue;
    }
    if (payload.accountId === accountId) await db.deleteFrom('oidc_models').where('model', '=', row.model).where('id', '=', row.id).execute();
  }
}
