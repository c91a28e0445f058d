/**
 * How the live stream's readers of one instance learn that another instance (or process) wrote
 * (docs/front-ends.md "Live updates", D142). A notification only wakes readers, who then read the
 * new event rows, so a notification lost or doubled loses or repeats no event.
 *
 * - PostgreSQL without Redis: LISTEN on EVENTS_CHANNEL on a connection of its own
 *   (Db.connectDedicated); every write's transaction notifies it at commit
 *   (src/modules/events/repository.ts, notifyEvents), whoever wrote it.
 * - REDIS_URL set: a subscriber connection on `<prefix>live`; every instance publishes there after
 *   each of its own commits (publishWakeUp, from LiveHub), so the others wake.
 * - SQLite: none (one instance; its writes wake its readers in process).
 *
 * A transport that loses its connection reconnects (once a second at most) and then wakes every
 * reader, since notifications may have been missed meanwhile.
 */
import type { Client } from 'pg';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { EVENTS_CHANNEL } from '../events/repository.js';

/** A fan-out transport: started once, then calls `wake` with workspace ids (null: every workspace). */
export interface LiveTransport {
  close(): Promise<void>;
}

/** The Redis channel of live wake-ups. */
export const redisChannel = (prefix: string) => `${prefix}live`;

/**
 * Tells the other instances, through Redis, that this one committed events of `workspaceId`
 * (called after every commit that recorded events, whether or not this instance has subscribers).
 */
export function publishWakeUp(redis: Redis, prefix: string, workspaceId: string): void {
  redis.publish(redisChannel(prefix), workspaceId).catch(() => {});
}

const RETRY_MS = 1_000;

/** LISTEN on EVENTS_CHANNEL through `connect` (a dedicated PostgreSQL connection). */
export function listenTransport(connect: () => Promise<Client>, log: Logger, wake: (workspaceId: string | null) => void): LiveTransport {
  let client: Client | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let warned = false;
  const open = async (): Promise<void> => {
    if (closed) return;
    try {
      const c = await connect();
      if (closed) {
        await c.end().catch(() => {});
        return;
      }
      c.on('notification', (msg) => wake(msg.payload ?? null));
      c.on('error', () => drop(c));
      c.on('end', () => drop(c));
      await c.query(`LISTEN ${EVENTS_CHANNEL}`);
      client = c;
      if (warned) log.info('live updates: notification connection back');
      warned = false;
      // Whatever was committed while no one listened.
      wake(null);
    } catch (err) {
      if (!warned) log.warn({ err: err instanceof Error ? err.message : String(err) }, 'live updates: cannot listen for notifications; retrying');
      warned = true;
      timer = setTimeout(() => void open(), RETRY_MS);
    }
  };
  const drop = (c: Client) => {
    if (client !== c) return;
    client = null;
    void c.end().catch(() => {});
    if (!closed) timer = setTimeout(() => void open(), RETRY_MS);
  };
  void open();
  return {
    close: async () => {
      closed = true;
      clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}

/** Redis pub/sub on `<prefix>live`: a subscriber connection duplicated from `redis` (publishWakeUp publishes). */
export function redisTransport(redis: Redis, prefix: string, wake: (workspaceId: string | null) => void): LiveTransport {
  const channel = redisChannel(prefix);
  const subscriber = redis.duplicate();
  // Subscribed again on every (re)connection; missed messages are made up for by a wake-up.
  subscriber.on('ready', () => {
    subscriber.subscribe(channel).then(
      () => wake(null),
      () => {},
    );
  });
  subscriber.on('message', (_channel: string, message: string) => wake(message));
  subscriber.on('error', () => {});
  return {
    close: async () => {
      subscriber.disconnect();
    },
  };
}
