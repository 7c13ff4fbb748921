import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const COUNTERS = ['active_ms', 'click_count', 'rage_click_count', 'dead_click_count', 'error_count', 'failed_request_count'] as const;

/** ISO code of an English country name, as the server stored names until now. */
function countryCodes(): Map<string, string> {
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  const codes = new Map<string, string>();
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      const name = names.of(code);
      if (name && name !== code && !codes.has(name)) codes.set(name, code);
    }
  }
  return codes;
}

/**
 * What a session's events tell, kept on its row as batches arrive (duration, active time,
 * pages, clicks, rage and dead clicks, errors, failed requests, exit page, and the small state
 * the rules carry between batches), the country's ISO code and the browser's name for the
 * filters, and the campaign's console-capture setting. Each index serves a filter or a sort of
 * the sessions list within one campaign.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('duration_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  for (const column of COUNTERS) {
    await db.schema
      .alterTable('sessions')
      .addColumn(column, column === 'active_ms' ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  for (const column of ['pages', 'exit_url', 'facts_carry', 'country_code', 'browser_name']) {
    await db.schema.alterTable('sessions').addColumn(column, 'text').execute();
  }
  await db.schema
    .alterTable('campaigns')
    .addColumn('capture_console', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await sql`update sessions set duration_ms = case when last_activity_at > started_at then last_activity_at - started_at else 0 end`.execute(db);
  // "Chrome 120" → "chrome": the browser filter takes a name, whatever the version.
  await sql`update sessions set browser_name = lower(trim(rtrim(browser, '0123456789.'))) where browser is not null`.execute(db);
  const named = await db.selectFrom('sessions').select('country').distinct().where('country', 'is not', null).execute();
  const codes = countryCodes();
  for (const { country } of named as { country: string }[]) {
    const code = codes.get(country) ?? (/^[A-Z]{2}$/.test(country) ? country : undefined);
    if (code) await db.updateTable('sessions').set({ country_code: code }).where('country', '=', country).execute();
  }

  const index = (name: string, columns: string[]) =>
    db.schema
      .createIndex(name)
      .on('sessions')
      .columns(['campaign_id', ...columns]);
  await index('sessions_campaign_duration', ['duration_ms', 'id']).execute(); // sort=longest, minDuration/maxDuration
  await index('sessions_campaign_active', ['active_ms', 'id']).execute(); // sort=active
  await index('sessions_campaign_errors', ['error_count', 'started_at', 'id']).execute(); // sort=errors
  await index('sessions_campaign_country', ['country_code', 'started_at', 'id']).execute(); // country=
  await index('sessions_campaign_device', ['device', 'started_at', 'id']).execute(); // device=
  await index('sessions_campaign_browser', ['browser_name', 'started_at', 'id']).execute(); // browser=
  // The few sessions with errors, rage or dead clicks, newest first: partial indexes.
  await index('sessions_campaign_with_errors', ['started_at', 'id']).where(sql.ref('error_count'), '>', 0).execute();
  await index('sessions_campaign_with_rage', ['started_at', 'id']).where(sql.ref('rage_click_count'), '>', 0).execute();
  await index('sessions_campaign_with_dead', ['started_at', 'id']).where(sql.ref('dead_click_count'), '>', 0).execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const name of ['duration', 'active', 'errors', 'country', 'device', 'browser', 'with_errors', 'with_rage', 'with_dead']) {
    await db.schema.dropIndex(`sessions_campaign_${name}`).ifExists().execute();
  }
  for (const column of ['duration_ms', ...COUNTERS, 'pages', 'exit_url', 'facts_carry', 'country_code', 'browser_name']) {
    await db.schema.alterTable('sessions').dropColumn(column).execute();
  }
  await db.schema.alterTable('campaigns').dropColumn('capture_console').execute();
}
