/**
 * The machine's PostgreSQL and Redis for the shared-state tests: whether they answer (a suite skips with one notice
 * line when not), a fresh schema or key prefix per test (dropped afterwards), and a TCP proxy in the test process that a
 * test breaks and restores to play an outage without touching the real services.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';
import pg from 'pg';
import { noteSkip } from './skip-notice.js';

/** The test database (trust authentication on the development and CI machines). */
export const TEST_POSTGRES_URL = process.env.OMOPTERM_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.OMOPTERM_TEST_REDIS ?? 'redis://127.0.0.1:6379';

/** True when no PostgreSQL answers at TEST_POSTGRES_URL (the calling file is noted; its suites skip). */
export async function postgresMissing(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return false;
  } catch {
    noteSkip('postgres', [TEST_POSTGRES_URL]);
    return true;
  } finally {
    await client.end().catch(() => {});
  }
}

/** True when no Redis answers at TEST_REDIS_URL. */
export async function redisMissing(): Promise<boolean> {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
    return false;
  } catch {
    noteSkip('redis', [TEST_REDIS_URL]);
    return true;
  } finally {
    redis.disconnect();
  }
}

const uniqueName = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

/** A state URL on a schema of its own (created by the store's migrations); `drop` removes it. */
export function freshPostgresSchema(base: string = TEST_POSTGRES_URL): { url: string; schema: string; drop(): Promise<void> } {
  const schema = uniqueName('omopterm_test');
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  return {
    url: url.href,
    schema,
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A Redis URL with a key prefix of its own; `clean` deletes every key under it. */
export function freshRedisPrefix(base: string = TEST_REDIS_URL): { url: string; prefix: string; clean(): Promise<void> } {
  const prefix = `${uniqueName('omopterm-test')}:`;
  const url = new URL(base);
  url.searchParams.set('prefix', prefix);
  return {
    url: url.href,
    prefix,
    clean: async () => {
      const redis = new Redis(TEST_REDIS_URL);
      try {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length) await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
    },
  };
}

/** The same URL with its port replaced (to reach a service through a TcpProxy). */
export function throughPort(url: string, port: number): string {
  const u = new URL(url);
  u.port = String(port);
  return u.href;
}

/**
 * A TCP proxy on a loopback port to a service: `cut()` closes the listener and every connection (the service looks
 * gone: connections refused), `restore()` listens again on the same port.
 */
export class TcpProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  static async start(target: string): Promise<TcpProxy> {
    const url = new URL(target);
    const proxy = new TcpProxy(url.hostname, Number(url.port || (url.protocol.startsWith('redis') ? 6379 : 5432)));
    await proxy.listen(0);
    return proxy;
  }

  private listen(port: number): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        this.port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async restore(): Promise<void> {
    if (!this.server) await this.listen(this.port);
  }

  async close(): Promise<void> {
    await this.cut();
  }
}
