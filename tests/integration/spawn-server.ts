import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

// The real server process (`server/main.ts` through tsx, or the compiled dist/server/main.js),
// for what only a process shows: start-up refusals, signals and exit codes.

export interface ServerProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves when stdout has printed a line matching `pattern`; rejects if the process exits first. */
  printed(pattern: RegExp): Promise<string>;
  exited: Promise<number | null>;
}

export function spawnServer(
  env: Record<string, string>,
  options: Pick<SpawnOptions, 'uid' | 'gid'> = {},
  args = ['--import', 'tsx', 'server/main.ts'],
): ServerProcess {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
  });
  let out = '';
  let err = '';
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  child.stdout?.setEncoding('utf8').on('data', (data: string) => {
    out += data;
    for (const waiter of [...waiters]) {
      const line = out.split('\n').find((l) => waiter.pattern.test(l));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (data: string) => (err += data));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    printed: (pattern) =>
      Promise.race([
        new Promise<string>((resolve) => {
          const line = out.split('\n').find((l) => pattern.test(l));
          if (line !== undefined) resolve(line);
          else waiters.push({ pattern, resolve });
        }),
        exited.then((code) => {
          throw new Error(`the server exited (${code}) before printing ${pattern}:\n${out}\n${err}`);
        }),
      ]),
  };
}
