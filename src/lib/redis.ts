/**
 * The Redis client of a context, when REDIS_URL is set (issue 13 "many instances"): what several
 * instances must count together (request rate limits, Studio sign-in throttling) is kept there
 * instead of in each process's memory.
 *
 * The client connects at once, fails a command immediately while the connection is down instead of queueing it (callers fall back: rate limits let the request
 * through, sign-in throttling counts in memory), and reconnects in the background. Connection
 * errors are logged, never thrown at the process: a lost Redis fails or degrades one request,
 * never the server. The URL may hold a password, so it is never logged.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Opens the client for `url` (redis:// or rediss://); every key is prefixed by `prefix`. Waits up
 * to `waitMs` for the connection, so the first requests already count together; a Redis that is
 * down then does not stop the start (the client keeps reconnecting).
 */
export async function createRedis(url: string, prefix: string, log: Logger, waitMs = 2000): Promise<Redis> {
  // Loaded here, not at the top: an instance without REDIS_URL never pays its memory (about 9 MiB).
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    keyPrefix: prefix,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    // Back off to one attempt every 2 s at most; never give up (Redis may come back).
    retryStrategy: (times) => Math.min(times * 100, 2000),
  });
  let reported = false;
  client.on('error', (err: Error) => {
    // One line per outage, not one per reconnection attempt.
    if (!reported) log.warn({ err: { message: err.message } }, 'redis unreachable; shared limits fall back to this instance');
    reported = true;
  });
  client.on('ready', () => {
    if (reported) log.info('redis reachable again');
    reported = false;
  });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    new Promise<void>((resolve) => client.once('ready', () => resolve())),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    }),
  ]);
  clearTimeout(timer);
  return client;
}

/** Ends the client's connection (waiting for pending replies when it is up). */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
  else client.disconnect();
}
