/** Reads `--rate-limit-store redis://…` (without loading the client, so that a command that uses no Redis never loads it). */

/** The prefix of every key omopterm writes in Redis, unless the URL's `prefix` parameter gives another. */
export const DEFAULT_REDIS_PREFIX = 'omopterm:';

export interface RedisLocation {
  /** The URL ioredis connects with (without omopterm's `prefix` parameter). */
  url: string;
  prefix: string;
  /** The URL without its password, for messages. */
  display: string;
}

/** Reads a `redis://` / `rediss://` URL; throws an Error that says what to give instead. */
export function parseRedisUrl(value: string): RedisLocation {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`'${value}' is not a URL: give redis://host:6379 (or rediss:// for TLS; optionally ?prefix=name:)`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new Error(`'${url.protocol}' is not a Redis URL: give redis://host:6379`);
  if (!url.hostname) throw new Error(`the Redis URL '${value}' names no host: give redis://host:6379`);
  const prefix = url.searchParams.get('prefix') ?? DEFAULT_REDIS_PREFIX;
  url.searchParams.delete('prefix');
  const shown = new URL(url.href);
  if (shown.password) shown.password = '***';
  return { url: url.href, prefix, display: shown.href };
}
