/**
 * Rate limits counted in Redis (`--rate-limit-store redis://…`): rate-limiter-flexible's RateLimiterRedis, one atomic Lua
 * script per request, over an ioredis connection that fails at once while Redis is away (no offline queue) and
 * reconnects by itself.
 */
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { FlexibleRateLimiter, type RateLimiter } from '../rate-limiter.js';
import { StateUnavailableError } from '../state-errors.js';
import type { RedisLocation } from './redis-url.js';

export { DEFAULT_REDIS_PREFIX, parseRedisUrl, type RedisLocation } from './redis-url.js';

/** Longest wait for a connection or an answer: a request is refused (503) rather than left waiting. */
const REDIS_TIMEOUT_MS = 2000;

/** Connects (waiting up to REDIS_TIMEOUT_MS for Redis to answer) and answers the limiter; rejects when Redis is not there. */
export async function redisRateLimiter(location: RedisLocation, onNotice: (line: string) => void = () => {}): Promise<RateLimiter> {
  const redis = new Redis(location.url, {
    enableOfflineQueue: false,
    // Commands issued in one tick go out in one write (fewer system calls per request under load).
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    connectTimeout: REDIS_TIMEOUT_MS,
    commandTimeout: REDIS_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, REDIS_TIMEOUT_MS),
  });
  let lastError = '';
  redis.on('error', (error: Error) => {
    // ioredis reports every failed reconnection attempt: say it once per outage.
    if (error.message !== lastError) onNotice(`Redis rate-limit store ${location.display}: ${error.message} (reconnecting)`);
    lastError = error.message;
  });
  redis.on('ready', () => (lastError = ''));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer within ${REDIS_TIMEOUT_MS} ms`)), REDIS_TIMEOUT_MS);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  } catch (error) {
    redis.disconnect();
    throw new StateUnavailableError('redis', new Error(`cannot reach Redis at ${location.display}: ${(error as Error).message}`));
  }
  return new FlexibleRateLimiter(
    (window) => new RateLimiterRedis({ ...window, storeClient: redis, rejectIfRedisNotReady: true }),
    {
      backend: 'redis',
      keyPrefix: location.prefix,
      lease: true,
      ping: async () => {
        await redis.ping();
      },
      release: async () => {
        await redis.quit().catch(() => redis.disconnect());
      },
    },
  );
}
