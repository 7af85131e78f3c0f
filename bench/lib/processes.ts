/**
 * Child processes of the benchmark: the real `omopterm` CLI (from source through tsx, or the built
 * dist/), with wall time and memory measured from /proc while they run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type CliMode = 'tsx' | 'dist';

export function cliCommand(mode: CliMode): string[] {
  if (mode === 'dist') {
    if (!existsSync(`${REPO_ROOT}dist/cli/main.js`)) throw new Error('dist/cli/main.js is missing: run `npm run build` or use --cli tsx');
    return [process.execPath, 'dist/cli/main.js'];
  }
  return [process.execPath, '--import', 'tsx', 'src/cli/main.ts'];
}

/**
 * VmRSS and VmHWM of a process in bytes (0 when it is gone), and the part of the RSS that is pages of
 * mapped files (RssFile: e.g. the memory-mapped vector index, clean and reclaimable by the kernel).
 */
export function processMemory(pid: number): { rss: number; hwm: number; fileBacked: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string): number => {
      const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status);
      return m ? Number(m[1]) * 1024 : 0;
    };
    return { rss: kb('VmRSS'), hwm: kb('VmHWM'), fileBacked: kb('RssFile') };
  } catch {
    return { rss: 0, hwm: 0, fileBacked: 0 };
  }
}

/** processMemory summed over a process and its descendants (a server's worker processes); hwm is the sum of theirs. */
export function processTreeMemory(pid: number): { rss: number; hwm: number; fileBacked: number; processes: number } {
  const pids = processTree(pid);
  const total = { rss: 0, hwm: 0, fileBacked: 0, processes: pids.length };
  for (const p of pids) {
    const m = processMemory(p);
    total.rss += m.rss;
    total.hwm += m.hwm;
    total.fileBacked += m.fileBacked;
  }
  return total;
}

/** The process and all its descendants (from /proc/<pid>/stat parent links). */
export function processTree(root: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(name), ppid);
    } catch {
      // exited meanwhile
    }
  }
  const out = [root];
  for (let k = 0; k < out.length; k++) for (const [pid, ppid] of parentOf) if (ppid === out[k]) out.push(pid);
  return out;
}

export interface MeasuredRun {
  status: number;
  stdout: string;
  stderr: string;
  wallMs: number;
  /** Largest sampled sum of RSS over the process tree. */
  peakTreeRssBytes: number;
  /** Largest VmHWM (peak RSS) seen of any single process of the tree. */
  peakProcessRssBytes: number;
}

/**
 * Runs a CLI command to completion, sampling the memory of its process tree every 250 ms.
 * stderr is forwarded (progress) when `echo` is set.
 */
export function runMeasured(argv: string[], opts: { cwd?: string; echo?: boolean; env?: Record<string, string> } = {}): Promise<MeasuredRun> {
  return new Promise((resolvePromise, reject) => {
    const started = Date.now();
    const child = spawn(argv[0]!, argv.slice(1), { cwd: opts.cwd ?? REPO_ROOT, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (opts.echo) process.stderr.write(d);
    });
    let peakTree = 0;
    let peakProcess = 0;
    const hwmOf = new Map<number, number>();
    const sample = (): void => {
      if (child.pid === undefined) return;
      let sum = 0;
      for (const pid of processTree(child.pid)) {
        const m = processMemory(pid);
        sum += m.rss;
        hwmOf.set(pid, Math.max(hwmOf.get(pid) ?? 0, m.hwm));
      }
      peakTree = Math.max(peakTree, sum);
      for (const v of hwmOf.values()) peakProcess = Math.max(peakProcess, v);
    };
    const timer = setInterval(sample, 250);
    child.on('error', (err) => {
      clearInterval(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearInterval(timer);
      resolvePromise({ status: code ?? -1, stdout, stderr, wallMs: Date.now() - started, peakTreeRssBytes: peakTree, peakProcessRssBytes: peakProcess });
    });
  });
}

/** Starts a long-running CLI command (the server) with these extra environment variables; stderr lines go to `onLine`. */
export function startBackground(argv: string[], onLine: (line: string) => void, env: Record<string, string> = {}): ChildProcess {
  const child = spawn(argv[0]!, argv.slice(1), { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let buf = '';
  const feed = (d: Buffer): void => {
    buf += d.toString();
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      onLine(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
    }
  };
  child.stdout!.on('data', feed);
  child.stderr!.on('data', feed);
  return child;
}

export function stopProcess(child: ChildProcess, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolvePromise) => {
    if (child.exitCode !== null || child.pid === undefined) return resolvePromise();
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolvePromise();
    });
    child.kill('SIGTERM');
  });
}
