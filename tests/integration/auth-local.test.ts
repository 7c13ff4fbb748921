import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/local-accounts.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { TEST_PASSWORD, signIn, submitSignInForm } from '../helpers/signin.js';

const WRONG = 'Wrong email or password.';
const CLOSED = 'New accounts are closed on this server. Ask its administrator.';

const accountRow = (server: TestServer, email: string) => server.db.selectFrom('local_accounts').selectAll().where('email', '=', email).executeTakeFirst();

/** Runs `npm run user -- …` (the script itself) against the test server's database. */
async function userCommand(server: TestServer, args: string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: server.config.dataDir, HOST: '127.0.0.1', NODE_ENV: 'test' };
  if (server.config.databaseUrl) {
    env.DATABASE_URL = server.config.databaseUrl;
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(server.db);
    env.PGOPTIONS = `-c search_path=${rows[0]?.schema}`;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/user.ts', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  child.stdin.end(stdin);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}

describe('built-in sign-in with a password (SIGNUP=open)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.close());

  it('the first sign-in of an email sets its password, stored only as a salted scrypt hash', async () => {
    const first = await signIn(server, { name: 'Ada Lovelace', email: 'Ada@Example.test', password: 'analytical engine' });
    expect(first.user.name).toBe('Ada Lovelace');
    const row = await accountRow(server, 'ada@example.test');
    expect(row).toMatchObject({ name: 'Ada Lovelace', made_by: 'signup' });
    expect(row?.password_hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]{16,}\$[\w-]{40,}$/);
    expect(JSON.stringify(row)).not.toContain('analytical engine');

    // The same password again, and the name may be left out: the same user.
    const again = await signIn(server, { name: '', email: 'ada@example.test', password: 'analytical engine' });
    expect(again.user.id).toBe(first.user.id);
    expect(again.user.name).toBe('Ada Lovelace');
  });

  it('two accounts with the same password get different hashes (a salt per account)', async () => {
    await signIn(server, { name: 'One', email: 'one@example.test' });
    await signIn(server, { name: 'Two', email: 'two@example.test' });
    const [one, two] = await Promise.all([accountRow(server, 'one@example.test'), accountRow(server, 'two@example.test')]);
    expect(one?.password_hash).not.toBe(two?.password_hash);
  });

  it('a wrong password is refused with a clear message and changes nothing', async () => {
    await signIn(server, { name: 'Grace', email: 'grace@example.test', password: 'compiler-1952' });
    const before = await accountRow(server, 'grace@example.test');
    const refused = await submitSignInForm(server, { name: 'Mallory', email: 'grace@example.test', password: 'not her password' });
    expect(refused.status).toBe(401);
    const page = await refused.text();
    expect(page).toContain(WRONG);
    expect(page).not.toContain('not her password');
    expect(await accountRow(server, 'grace@example.test')).toEqual(before);
    expect(await server.db.selectFrom('users').select('name').where('email', '=', 'grace@example.test').execute()).toEqual([{ name: 'Grace' }]);
  });

  it('a new account needs a name and a password of at least 8 characters; nothing is stored until then', async () => {
    const short = await submitSignInForm(server, { name: 'Shorty', email: 'shorty@example.test', password: 'seven77' });
    expect(short.status).toBe(400);
    expect(await short.text()).toContain('at least 8 characters');
    const nameless = await submitSignInForm(server, { name: '', email: 'shorty@example.test', password: TEST_PASSWORD });
    expect(nameless.status).toBe(400);
    expect(await nameless.text()).toContain('Please enter your name.');
    expect(await accountRow(server, 'shorty@example.test')).toBeUndefined();
  });

  it('the form asks for a password and says how long it must be', async () => {
    const response = await submitSignInForm(server, { email: 'nobody' });
    const page = await response.text();
    expect(page).toMatch(/<input name="password" type="password"[^>]*minlength="8"/);
    expect(page).toContain('at least 8 characters');
  });

  it('`npm run user -- reset-password` sets a new password: the old one stops working and old sessions end', async () => {
    const before = await signIn(server, { name: 'Lin', email: 'lin@example.test', password: 'old password' });
    const reset = await userCommand(server, ['reset-password', 'lin@example.test'], 'brand new password\n');
    expect(reset.stderr).toBe('');
    expect(reset.code).toBe(0);
    expect((await submitSignInForm(server, { email: 'lin@example.test', password: 'old password' })).status).toBe(401);
    const after = await signIn(server, { name: '', email: 'lin@example.test', password: 'brand new password' });
    expect(after.user.id).toBe(before.user.id);
    const oldSession = await fetch(`${server.url}/api/v1/auth/me`, { headers: before.headers });
    expect(oldSession.status).toBe(401);
  });

  it('the command refuses a short password and an unknown account, and prints a generated password', async () => {
    const short = await userCommand(server, ['add', 'kim@example.test', 'Kim'], 'short\n');
    expect(short.code).not.toBe(0);
    expect(short.stderr).toContain('at least 8 characters');
    const unknown = await userCommand(server, ['reset-password', 'nobody@example.test'], 'long enough password\n');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('nobody@example.test has no account');
    const generated = await userCommand(server, ['add', 'kim@example.test', 'Kim', '--generate'], '');
    expect(generated.code).toBe(0);
    const password = /Password: (\S+)/.exec(generated.stdout)?.[1] ?? '';
    expect(password.length).toBeGreaterThanOrEqual(16);
    expect((await signIn(server, { name: '', email: 'kim@example.test', password })).user.name).toBe('Kim');
  });
});

describe('built-in sign-in with SIGNUP=closed', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ SIGNUP: 'closed' });
  });
  afterAll(() => server?.close());

  it('refuses a new email with a clear message and stores nothing', async () => {
    const refused = await submitSignInForm(server, { name: 'Eve', email: 'eve@example.test', password: TEST_PASSWORD });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(CLOSED);
    expect(await accountRow(server, 'eve@example.test')).toBeUndefined();
    expect(await server.db.selectFrom('users').select('id').execute()).toEqual([]);
  });

  it('the form says so: no name field, no invitation to make an account', async () => {
    const page = await (await submitSignInForm(server, { email: 'nobody' })).text();
    expect(page).not.toContain('name="name"');
    expect(page).toContain('the administrator of this server made for you');
  });

  it('accepts an account made with `npm run user -- add`, with its password only', async () => {
    const added = await userCommand(server, ['add', 'Ada@Example.test', 'Ada Lovelace'], 'analytical engine\n');
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('Added ada@example.test');
    const wrong = await submitSignInForm(server, { email: 'ada@example.test', password: 'difference engine' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain(WRONG);
    const signedIn = await signIn(server, { name: '', email: 'ada@example.test', password: 'analytical engine' });
    expect(signedIn.user).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.test' });
  });

  it('keeps letting in an account made while sign-up was open: closing sign-up stops new accounts only', async () => {
    await server.db
      .insertInto('local_accounts')
      .values({ email: 'self@example.test', subject: 'self-made', name: 'Self', password_hash: await hashPassword('self password'), made_by: 'signup', created_at: 0, updated_at: 0 })
      .execute();
    expect((await signIn(server, { name: '', email: 'self@example.test', password: 'self password' })).user.name).toBe('Self');
    const wrong = await submitSignInForm(server, { email: 'self@example.test', password: 'not the password' });
    expect(wrong.status).toBe(401);
  });
});
