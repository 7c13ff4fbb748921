import pg from 'pg';

/**
 * PostgreSQL-only tests skip when TEST_DATABASE_URL is unset; with REQUIRE_POSTGRES=1 (CI's
 * PostgreSQL pass) a missing or unreachable database fails the run instead, as
 * REQUIRE_BROWSER=1 does for a missing Chromium.
 */
export async function checkPostgres(env: NodeJS.ProcessEnv): Promise<void> {
  if (env.REQUIRE_POSTGRES !== '1') return;
  const url = env.TEST_DATABASE_URL;
  if (!url) throw new Error('REQUIRE_POSTGRES=1 but TEST_DATABASE_URL is not set: the PostgreSQL-only tests would be skipped');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL at TEST_DATABASE_URL does not answer: ${(error as Error).message}`, { cause: error });
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The server project's global setup (vitest passes it the project, so the environment is read here). */
export default async function requirePostgres(): Promise<void> {
  await checkPostgres(process.env);
}

/** Says loudly, once a file is loaded, that its PostgreSQL-only tests are skipped (no TEST_DATABASE_URL). */
export function warnIfSkipped(what: string): void {
  if (process.env.TEST_DATABASE_URL) return;
  const message = `${what} skipped: it needs PostgreSQL; set TEST_DATABASE_URL (CI does, with REQUIRE_POSTGRES=1)`;
  console.warn(`\n${'!'.repeat(message.length)}\n${message}\n${'!'.repeat(message.length)}\n`);
}
