import crypto from 'node:crypto';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { migrate, openDb, type Db } from '../db/index.js';
import { usersWithSubject } from '../auth/users.js';
import { revokeUsersTokens } from '../auth/refresh-tokens.js';
import { forgetProviderAccount } from '../auth/oidc-adapter.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, createAccount, findAccount, isAccountEmail, normalizeEmail, resetPassword } from '../auth/local-accounts.js';

/**
 * Accounts of the built-in sign-in provider, for the server's administrator:
 *   npm run user -- add ada@example.com "Ada Lovelace" [--generate]
 *   npm run user -- reset-password ada@example.com [--generate]
 * The password comes from stdin when piped, from a prompt without echo on a terminal, or is
 * generated and printed with --generate. Uses the server's own configuration (DATA_DIR, DATABASE_URL).
 */

const USAGE = `Usage:
  npm run user -- add <email> "<name>" [--generate]
  npm run user -- reset-password <email> [--generate]
The password is read from stdin when piped, asked for on a terminal, or generated with --generate.`;

class UsageError extends Error {}

async function readPiped(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text.split(/\r?\n/)[0] ?? '';
}

/** Reads one line from the terminal without echoing it. */
function prompt(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stderr.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    let line = '';
    const done = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(line);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return done();
        if (char === '\u0003') return done(new UsageError('cancelled'));
        if (char === '\u007f' || char === '\b') line = line.slice(0, -1);
        else line += char;
      }
    };
    stdin.on('data', onData);
  });
}

async function askPassword(generate: boolean): Promise<string> {
  if (generate) {
    const password = crypto.randomBytes(15).toString('base64url');
    console.log(`Password: ${password}`);
    return password;
  }
  let password: string;
  if (process.stdin.isTTY) {
    password = await prompt('Password: ');
    if ((await prompt('Password again: ')) !== password) throw new UsageError('the two passwords differ');
  } else {
    password = await readPiped();
  }
  if (password.length < MIN_PASSWORD_LENGTH) throw new UsageError(`the password must have at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > MAX_PASSWORD_LENGTH) throw new UsageError(`the password must have at most ${MAX_PASSWORD_LENGTH} characters`);
  return password;
}

function checkEmail(email: string | undefined): string {
  if (!email || !isAccountEmail(email)) throw new UsageError(`a valid email address is needed\n${USAGE}`);
  return normalizeEmail(email);
}

/**
 * A new password ends every session the account had, and the built-in provider's own: whoever
 * knew the old one is signed out. Users are keyed by issuer|subject, and the issuer follows
 * PUBLIC_URL, so match the subject.
 */
async function endSessions(db: Db, subject: string): Promise<void> {
  await revokeUsersTokens(db, await usersWithSubject(db, subject));
  await forgetProviderAccount(db, subject);
}

async function run(db: Db, args: string[]): Promise<string> {
  const generate = args.includes('--generate');
  const [command, email, name] = args.filter((a) => a !== '--generate');
  switch (command) {
    case 'add': {
      const address = checkEmail(email);
      const trimmed = (name ?? '').trim().slice(0, 100);
      if (!trimmed) throw new UsageError(`a name is needed\n${USAGE}`);
      if (await findAccount(db, address)) throw new UsageError(`${address} already has an account; use reset-password to change its password`);
      const password = await askPassword(generate);
      if (!(await createAccount(db, { email: address, name: trimmed, password, madeBy: 'command' }))) throw new UsageError(`${address} already has an account`);
      return `Added ${address} (${trimmed}).`;
    }
    case 'reset-password': {
      const address = checkEmail(email);
      const account = await findAccount(db, address);
      if (!account) throw new UsageError(`${address} has no account; add it with: npm run user -- add ${address} "<name>"`);
      const password = await askPassword(generate);
      await resetPassword(db, address, password);
      await endSessions(db, account.subject);
      return `New password set for ${address}; its sessions are signed out.`;
    }
    default:
      throw new UsageError(USAGE);
  }
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(`Configuration error: ${error.message}`);
    throw error;
  }
  if (config.signIn.kind !== 'local') console.error(`Note: this server signs in with ${config.signIn.kind}; these accounts only serve the built-in provider.`);
  const db = openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(db);
    console.log(await run(db, process.argv.slice(2)));
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof UsageError ? error.message : error instanceof Error ? error.message : String(error));
  process.exit(error instanceof UsageError ? 2 : 1);
});
