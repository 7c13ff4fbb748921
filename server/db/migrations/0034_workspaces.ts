import crypto from 'node:crypto';
import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Workspaces own campaigns (issue 37). Every account gets its personal workspace, as its owner,
 * and each of its campaigns moves into it: campaigns.workspace_id is filled for every row, so
 * nothing recorded under a campaign changes (sessions, shares, stars, notes and segments hang off
 * the campaign, whose id stays). campaigns.owner_id stays: the account that made the campaign.
 * Members hold a role per workspace; invites are kept by the SHA-256 of their token; the audit
 * log is appended to and never updated (a trigger refuses an UPDATE).
 */
export async function up(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    // The account whose personal workspace it is (one each); null for a workspace made by hand.
    .addColumn('personal_of', 'text', (c) => c.unique().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('workspace_members')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('workspace_members_pk', ['workspace_id', 'user_id'])
    .execute();
  await db.schema.createIndex('workspace_members_user').on('workspace_members').columns(['user_id', 'workspace_id']).execute();
  await db.schema
    .createTable('workspace_invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('accepted_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('workspace_invites_workspace').on('workspace_invites').columns(['workspace_id', 'created_at']).execute();
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_email', 'text')
    .addColumn('ip', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .execute();
  await db.schema.createIndex('audit_log_workspace').on('audit_log').columns(['workspace_id', 'at', 'id']).execute();
  if (postgres) {
    await sql`create function audit_log_unchanged() returns trigger language plpgsql as $$
      begin raise exception 'audit entries cannot be edited'; end $$`.execute(db);
    await sql`create trigger audit_log_no_update before update on audit_log for each row execute function audit_log_unchanged()`.execute(db);
  } else {
    await sql`create trigger audit_log_no_update before update on audit_log begin select raise(abort, 'audit entries cannot be edited'); end`.execute(db);
  }

  // No foreign key: SQLite cannot drop a column that has one (down), and campaigns go with their
  // workspace by explicit deletes, as an account's do (account/repository.ts).
  await db.schema.alterTable('campaigns').addColumn('workspace_id', 'text').execute();
  const users = await db.selectFrom('users').select(['id', 'created_at']).execute();
  for (const user of users as { id: string; created_at: number }[]) {
    const id = crypto.randomUUID();
    await db
      .insertInto('workspaces')
      .values({ id, name: 'Personal', personal_of: user.id, created_at: Number(user.created_at) })
      .execute();
    await db
      .insertInto('workspace_members')
      .values({ workspace_id: id, user_id: user.id, role: 'owner', joined_at: Number(user.created_at) })
      .execute();
  }
  await sql`update campaigns set workspace_id = (select w.id from workspaces w where w.personal_of = campaigns.owner_id)`.execute(db);
  if (postgres) await sql`alter table campaigns alter column workspace_id set not null`.execute(db);
  // A campaign inserted without a workspace (the seeders of tests and the bench) goes to its maker's personal one.
  if (postgres) {
    await sql`create function campaigns_personal_workspace() returns trigger language plpgsql as $$
      begin
        if new.workspace_id is null then
          new.workspace_id := (select w.id from workspaces w where w.personal_of = new.owner_id);
        end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger campaigns_personal_workspace before insert on campaigns for each row execute function campaigns_personal_workspace()`.execute(db);
  } else {
    await sql`create trigger campaigns_personal_workspace after insert on campaigns when new.workspace_id is null begin
      update campaigns set workspace_id = (select w.id from workspaces w where w.personal_of = new.owner_id) where id = new.id;
    end`.execute(db);
  }
  await db.schema.createIndex('campaigns_workspace').on('campaigns').columns(['workspace_id', 'created_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await sql`drop trigger campaigns_personal_workspace${sql.raw(postgres ? ' on campaigns' : '')}`.execute(db);
  if (postgres) await sql`drop function campaigns_personal_workspace()`.execute(db);
  await db.schema.dropIndex('campaigns_workspace').execute();
  await db.schema.alterTable('campaigns').dropColumn('workspace_id').execute();
  await db.schema.dropTable('audit_log').execute();
  if (postgres) await sql`drop function audit_log_unchanged()`.execute(db);
  await db.schema.dropTable('workspace_invites').execute();
  await db.schema.dropTable('workspace_members').execute();
  await db.schema.dropTable('workspaces').execute();
}
