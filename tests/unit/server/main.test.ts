import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The tsx that `npx tsx` runs, called directly so npm's own warnings stay out of stderr. */
const TSX = path.resolve('node_modules/.bin/tsx');

/**
 * Runs the server's entry point, and collects what it prints and how it ends. A server that
 * starts after all is stopped by the spawn timeout (on a free port, with a throwaway DATA_DIR).
 */
function runMain(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, ['server/main.ts'], {
      env: { ...process.env, PORT: '0', DATA_DIR: path.join(os.tmpdir(), `tapedeck-main-${process.pid}`), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 20_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (part: Buffer) => (stdout += part.toString()));
    child.stderr.on('data', (part: Buffer) => (stderr += part.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('server start-up', () => {
  it('stops on an unknown LOG_LEVEL with the one-line configuration error', async () => {
    const { code, stdout, stderr } = await runMain({ LOG_LEVEL: 'verbose' });
    expect(stderr.trim()).toBe('Configuration error: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")');
    expect(stdout).toBe('');
    expect(code).toBe(1);
  });
});
