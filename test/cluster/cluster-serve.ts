/**
 * `omopterm serve --workers N` for tests: the real CLI on a temp data directory, its stderr read line by line, and
 * client connections pinned to one worker each (a keep-alive agent holding one socket; /health names the worker's pid).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import https from 'node:https';
import type http from 'node:http';
import { CLI, REPO_ROOT } from '../helpers/cli.js';
import type { TestResponse } from '../helpers/test-server.js';

export interface ClusterServe {
  child: ChildProcess;
  /** `https://127.0.0.1:<port>` */
  url: string;
  port: number;
  stderr(): string;
  /** Resolves with the first stderr line matching `pattern` (rejects if the process exits first). */
  stderrLine(pattern: RegExp): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (if still running), then waits for the exit. */
  stop(): Promise<void>;
}

/** Spawns `omopterm serve --port 0 --data-dir DIR <args>`; resolves once it prints its listening line. */
export function spawnServe(dataDir: string, args: string[], env: Record<string, string> = {}): { serve: ClusterServe; listening: Promise<ClusterServe> } {
  const child = spawn(process.execPath, [...CLI, 'serve', '--port', '0', '--data-dir', dataDir, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const waiters = new Set<() => void>();
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString();
    for (const w of [...waiters]) w();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const stderrLine = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const line = err.split('\n').find((l) => pattern.test(l));
        if (line !== undefined) {
          waiters.delete(check);
          resolve(line);
        }
      };
      waiters.add(check);
      check();
      void exited.then(() => {
        check();
        reject(new Error(`serve exited before printing ${pattern}:\n${err}`));
      });
    });
  const serve: ClusterServe = {
    child,
    url: '',
    port: 0,
    stderr: () => err,
    stderrLine,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  const listening = stderrLine(/^omopterm listening on https:\/\/127\.0\.0\.1:\d+ /).then((line) => {
    serve.port = Number(/:(\d+) /.exec(line)![1]);
    serve.url = `https://127.0.0.1:${serve.port}`;
    return serve;
  });
  // A test that expects the process to fail awaits `exited` instead.
  listening.catch(() => undefined);
  return { serve, listening };
}

export interface RequestOptions {
  method?: string;
  key?: string | null;
  headers?: Record<string, string>;
  body?: unknown;
}

/** A client connection kept open to one worker: every request goes over the same TLS socket. */
export class PinnedConnection {
  private readonly agent = new https.Agent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: false });
  /** The pid of the worker holding the connection (set by `open`). */
  pid = 0;
  /** The socket `open` used: every later request must go over it. */
  private socket: unknown = null;

  private constructor(private readonly url: string) {}

  static async open(url: string): Promise<PinnedConnection> {
    const connection = new PinnedConnection(url);
    const health = await connection.request('/health', { key: null });
    if (health.status !== 200) throw new Error(`/health answered ${health.status}`);
    connection.pid = health.body.pid;
    return connection;
  }

  /**
   * Sends a request on this connection; fails if the socket was not the one opened (another worker could answer). The
   * socket itself is compared, not `req.reusedSocket`: a request sent before the agent has taken the previous answer's
   * socket back (its request's write not yet acknowledged, as after a fast answer) waits for that socket and gets it
   * without `reusedSocket` set.
   */
  async request(path: string, options: RequestOptions = {}): Promise<TestResponse> {
    const payload = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    const target = new URL(path, this.url);
    return new Promise((resolve, reject) => {
      const req: http.ClientRequest = https.request(
        { hostname: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: options.method ?? 'GET', headers, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            this.socket ??= socket;
            if (socket !== this.socket) return reject(new Error(`the connection to worker ${this.pid} was closed: the answer may come from another worker`));
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown;
            try {
              body = text ? JSON.parse(text) : undefined;
            } catch {
              body = undefined;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
          });
          res.on('error', reject);
        },
      );
      let socket: unknown = null;
      req.once('socket', (s) => (socket = s));
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Opens connections until it holds one to each of `workers` distinct workers (round-robin makes that quick). */
export async function connectionPerWorker(url: string, workers: number): Promise<PinnedConnection[]> {
  const byPid = new Map<number, PinnedConnection>();
  for (let attempt = 0; attempt < workers * 20 && byPid.size < workers; attempt++) {
    const connection = await PinnedConnection.open(url);
    if (byPid.has(connection.pid)) connection.close();
    else byPid.set(connection.pid, connection);
  }
  if (byPid.size < workers) throw new Error(`reached ${byPid.size} distinct workers, not ${workers}`);
  return [...byPid.values()];
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A two-term mapping job (examples/demo-vocabulary: E11 → 201826 Type 2 diabetes mellitus, AF → 313217 Atrial fibrillation). */
export const TWO_TERM_JOB = { text: 'source_code,source_name\nE11,Type 2 diabetes mellitus\nAF,Atrial fibrillation', file_name: 'two.csv' };
export const TWO_TERM_JOB_TARGETS = [201826, 313217];

/** Submits TWO_TERM_JOB over `connection` (202 expected) and answers the job's id. */
export async function submitTwoTermJob(connection: PinnedConnection, key: string): Promise<string> {
  const submitted = await connection.request('/v1/mapping-jobs', { method: 'POST', key, body: TWO_TERM_JOB });
  if (submitted.status !== 202) throw new Error(`mapping job not accepted: ${submitted.status} ${submitted.text}`);
  return submitted.body.data.job.id as string;
}

/** Polls the job over `connection` every 50 ms until it is finished (or `tries` run out); answers it as last read. */
export async function finishedJob(connection: PinnedConnection, key: string, id: string, tries = 600): Promise<Record<string, unknown>> {
  let job: Record<string, unknown> = {};
  for (let i = 0; i < tries && !['completed', 'failed', 'cancelled'].includes(String(job.state)); i++) {
    await sleep(50);
    job = (await connection.request(`/v1/mapping-jobs/${id}`, { key })).body.data.job;
  }
  return job;
}

/** The first candidate of each term of the job, in term order. */
export async function firstCandidates(connection: PinnedConnection, key: string, id: string): Promise<number[]> {
  const terms = (await connection.request(`/v1/mapping-jobs/${id}/terms?order=index`, { key })).body.data.terms;
  return terms.map((t: { candidates: Array<{ concept_id: number }> }) => t.candidates[0]!.concept_id);
}

/** The value of cookie `name` set by a response, if it sets it. */
export function cookieOf(res: TestResponse, name: string): string | undefined {
  const lines = res.headers['set-cookie'] ?? [];
  for (const line of Array.isArray(lines) ? lines : [lines]) {
    const m = new RegExp(`^${name}=([^;]*)`).exec(line);
    if (m) return m[1];
  }
  return undefined;
}

/** A form body (application/x-www-form-urlencoded). */
export const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();
