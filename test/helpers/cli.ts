/** Runs the real `omopterm` CLI (from source, through tsx) and captures its output. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SHARED_VOCAB = fileURLToPath(new URL('../../../shared/vocab/', import.meta.url));

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string> = {}): CliResult {
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: res.status ?? -1, stdout: res.stdout, stderr: res.stderr };
}
