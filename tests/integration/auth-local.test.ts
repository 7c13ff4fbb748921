import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword, subjectForEmail } from '../../server/auth/local-accounts.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { TEST_PASSWORD, signIn, submitSignInForm } from '../helpers/signin.js';

const WRONG = 'Wrong email or password.';
const WRONG_OR_NO_NAME = 'Wrong email or password. First time here? Please enter your name.';

const accountRow = (server: TestServer, email: string) => server.db.selectFrom('local_accounts').selectAll().where('email', '=', email).executeTakeFirst();

/** What the form says back: its status and its message (none when it let the person in). */
async function formAnswer(response: Response): Promise<{ status: number; message: string | undefined }> {
  const page = await response.text();
  return { status: response.status, message: /<p class="error" role="alert">([^<]*)<\/p>/.exec(page)?.[1] };
}

/** The built-in provider's records (sessions, grants, codes, tokens) naming this email's account. */
async function providerRecords(server: TestServer, email: string): Promise<string[]> {
  const rows = await server.db.selectFrom('oidc_models').select(['model', 'payload']).execute();
  return rows.filter((row) => (JSON.parse(row.payload) as { accountId?: string }).accountId === subjectForEmail(email)).map((row) => row.model);
}

/**
 * How many scrypt computations one form post costs: the same work whether or not the email has
 * an account (a count, not a clock: the test stays independent of the machine's speed).
 */
async function scryptCalls(post: () => Promise<Response>): Promise<number> {
  const spy = vi.spyOn(crypto, 'scrypt');
  try {
    await (await post()).text();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

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
    expect(nameless.status).toBe(401);
    expect(await nameless.text()).toContain(WRONG_OR_NO_NAME);
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
    expect(await providerRecords(server, 'lin@example.test')).toEqual(expect.arrayContaining(['Session', 'Grant']));
    const reset = await userCommand(server, ['reset-password', 'lin@example.test'], 'brand new password\n');
    expect(reset.stderr).toBe('');
    expect(reset.code).toBe(0);
    // The built-in provider's own session and grants of the account end too.
    expect(await providerRecords(server, 'lin@example.test')).toEqual([]);
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

describe('SIGNUP=open: the form does not tell whether an email has an account', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.close());

  it('an unknown email and a wrong password get the same answer', async () => {
    await signIn(server, { name: 'Known', email: 'known@example.test', password: 'the real password' });
    const answers = async (fields: Record<string, string>) => {
      const known = await formAnswer(await submitSignInForm(server, { ...fields, email: 'known@example.test' }));
      const unknown = await formAnswer(await submitSignInForm(server, { ...fields, email: 'unknown@example.test' }));
      expect(unknown).toEqual(known);
      return known;
    };
    // No name: a wrong password, or a first sign-in that needs a name; the message covers both.
    expect(await answers({ name: '', password: 'a wrong password' })).toEqual({ status: 401, message: WRONG_OR_NO_NAME });
    // A name and a short password.
    expect(await answers({ name: 'Someone', password: 'short' })).toEqual({ status: 400, message: 'Please choose a password of at least 8 characters.' });
    expect(await accountRow(server, 'unknown@example.test')).toBeUndefined();
  });

  it('an unknown email costs the same password-hash work as a known one with a wrong password', async () => {
    await signIn(server, { name: 'Hashed', email: 'hashed@example.test', password: 'the real password' });
    const post = (email: string) => () => submitSignInForm(server, { name: '', email, password: 'a wrong password' });
    await (await post('first-unknown@example.test')()).text(); // the decoy hash is made once, at the first unknown email
    const known = await scryptCalls(post('hashed@example.test'));
    expect(known).toBe(1);
    expect(await scryptCalls(post('nobody-here@example.test'))).toBe(known);
  });
});

describe('built-in sign-in with SIGNUP=closed', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ SIGNUP: 'closed' });
  });
  afterAll(() => server?.close());

  it('refuses a new email as it refuses a wrong password (whether an email has an account stays unknown), and stores nothing', async () => {
    const refused = await formAnswer(await submitSignInForm(server, { name: 'Eve', email: 'eve@example.test', password: TEST_PASSWORD }));
    expect(refused).toEqual({ status: 401, message: WRONG });
    expect(await accountRow(server, 'eve@example.test')).toBeUndefined();
    expect(await server.db.selectFrom('users').select('id').execute()).toEqual([]);
    // The password hash is worked out for the unknown email too (the decoy hash was made above).
    expect(await scryptCalls(() => submitSignInForm(server, { email: 'eve@example.test', password: TEST_PASSWORD }))).toBe(1);
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
    const wrong = await formAnswer(await submitSignInForm(server, { email: 'ada@example.test', password: 'difference engine' }));
    expect(wrong).toEqual({ status: 401, message: WRONG });
    // An email without an account gets exactly the same answer.
    expect(await formAnswer(await submitSignInForm(server, { email: 'nobody@example.test', password: 'difference engine' }))).toEqual(wrong);
    const signedIn = await signIn(server, { name: '', email: 'ada@example.test', password: 'analytical engine' });
    expect(signedIn.user).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.test' });
  });

  it('keeps letting in an account made while sign-up was open: closing sign-up stops new accounts only', async () => {
    await server.db
      .insertInto('local_accounts')
      .values({
        email: 'self@example.test',
        subject: 'self-made',
        name: 'Self',
        password_hash: await hashPassword('self password'),
        made_by: 'signup',
        created_at: 0,
        updated_at: 0,
      })
      .execute();
    expect((await signIn(server, { name: '', email: 'self@example.test', password: 'self password' })).user.name).toBe('Self');
    const wrong = await submitSignInForm(server, { email: 'self@example.test', password: 'not the password' });
    expect(wrong.status).toBe(401);
  });
});
