/** Runs the real `omopterm` CLI (from source, through tsx): a command to completion with its output, or `serve` in the background. */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SHARED_VOCAB = fileURLToPath(new URL('../../../shared/vocab/', import.meta.url));

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** `timeoutMs` (default 2 min): the command is killed after it, with status -1 and `timedOut` set. */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 120_000): CliResult & { timedOut: boolean } {
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
  });
  return { status: res.status ?? -1, stdout: res.stdout, stderr: res.stderr, timedOut: (res.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT' };
}

export interface CliServer {
  /** `https://127.0.0.1:<port>` */
  url: string;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Sends SIGTERM and waits for the process to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `omopterm serve --port 0 <args>` (from source) and resolves once it prints its
 * `omopterm listening on https://…` line; rejects if it exits first.
 */
export function startCliServe(args: string[], env: Record<string, string> = {}): Promise<CliServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const listening = /^omopterm listening on (https:\/\/127\.0\.0\.1:\d+) /m.exec(stderr);
      if (listening)
        resolve({
          url: listening[1]!,
          stderr: () => stderr,
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
    });
    void exited.then(() => reject(new Error(`omopterm serve exited before listening: ${stderr}`)));
  });
}
