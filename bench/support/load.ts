// The ingest load generator as a separate process (bench/support/load-process.ts, autocannon), so
// it does not share the server's event loop. One process serves a figure's jobs one at a time.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { LoadJob, LoadResult } from './load-process.js';

export type { LoadJob, LoadResult };

export class LoadGenerator {
  private child: ChildProcess = fork(path.join(import.meta.dirname, 'load-process.ts'), [], {
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });

  run(job: LoadJob): Promise<LoadResult> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`load generator exited with ${code}`));
      this.child.once('exit', onExit);
      this.child.once('message', (message: { result?: LoadResult; error?: string }) => {
        this.child.off('exit', onExit);
        if (message.result) resolve(message.result);
        else reject(new Error(`load generator: ${message.error}`));
      });
      this.child.send(job);
    });
  }

  close(): void {
    if (this.child.connected) this.child.disconnect();
  }
}
