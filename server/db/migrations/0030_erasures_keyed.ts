import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * An erasure record keeps the person as an HMAC of their id under a server secret
 * (`subject_hmac`), no longer as its plain SHA-256, which anyone could compute from a guessed
 * id such as an e-mail address. Existing records cannot be converted without the ids they erased:
 * they keep who, when and how many, and lose the subject. Records of campaigns already deleted go.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`delete from erasures where campaign_id not in (select id from campaigns)`.execute(db);
  await db.schema.alterTable('erasures').addColumn('subject_hmac', 'text').execute();
  await db.schema.alterTable('erasures').dropColumn('subject_sha256').execute();
}

export async function down(db: AnyDb): Promise<void> {
  // The ids are gone: old records come back with an empty subject.
  await db.schema
    .alterTable('erasures')
    .addColumn('subject_sha256', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('erasures').dropColumn('subject_hmac').execute();
}
