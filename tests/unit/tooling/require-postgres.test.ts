import { describe, expect, it } from 'vitest';
import { checkPostgres as requirePostgres } from '../../helpers/require-postgres.js';

// CI's PostgreSQL pass sets REQUIRE_POSTGRES=1: its PostgreSQL-only tests must fail, not skip.
describe('REQUIRE_POSTGRES', () => {
  it('fails when TEST_DATABASE_URL is unset', async () => {
    await expect(requirePostgres({ REQUIRE_POSTGRES: '1' })).rejects.toThrow('TEST_DATABASE_URL is not set');
  });
  it('fails when the database does not answer', async () => {
    await expect(requirePostgres({ REQUIRE_POSTGRES: '1', TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test' })).rejects.toThrow('does not answer');
  });
  it('lets the tests skip when not set', async () => {
    await expect(requirePostgres({})).resolves.toBeUndefined();
  });
  it.runIf(process.env.TEST_DATABASE_URL)('passes when the database answers', async () => {
    await expect(requirePostgres({ REQUIRE_POSTGRES: '1', TEST_DATABASE_URL: process.env.TEST_DATABASE_URL })).resolves.toBeUndefined();
  });
});
