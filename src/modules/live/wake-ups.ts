/**
 * The one wake-up of an instance's stream readers (docs/front-ends.md "Live updates" (D142);
 * docs/workflow.md "Who else is here" (D133)): the Live Content API's readers (hub.ts) and the
 * Studio's event stream readers (studio-hub.ts) both read tables after the last id they saw and
 * only need to hear "workspace W committed something". Both listen here, so an instance holds one
 * transport (a LISTEN connection, or one Redis subscriber) however many kinds of stream it serves.
 *
 * - This process's commits: db.memo.eventWatchers (called after each commit that recorded change
 *   events or Studio activity); with Redis they are published to the other instances too, whether
 *   or not this instance has streams (the others' streams depend on it), so the watcher is
 *   registered at construction.
 * - Other instances' commits: the transport (transports.ts), started by the first listener.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Db } from '../../db/types.js';
import { listenTransport, publishWakeUp, redisTransport, type LiveTransport } from './transports.js';

/** Called with a workspace id, or null: every workspace (a reconnected transport may have missed some). */
export type WakeListener = (workspaceId: string | null) => void;

export interface WakeUpDeps {
  db: Db;
  log: Logger;
  redis: Redis | null;
  config: { redisPrefix: string };
}

/** An instance's wake-ups (ctx.wakeUps); closed with the context, after the hubs. */
export class WakeUps {
  readonly #listeners = new Set<WakeListener>();
  #transport: LiveTransport | null = null;
  #closed = false;
  readonly #onCommit = (workspaceId: string) => {
    for (const listen of this.#listeners) listen(workspaceId);
    if (this.deps.redis) publishWakeUp(this.deps.redis, this.deps.config.redisPrefix, workspaceId);
  };

  constructor(readonly deps: WakeUpDeps) {
    deps.db.memo.eventWatchers.add(this.#onCommit);
  }

  /** Calls `listener` on every wake-up until the returned function is called; starts the transport on first use. */
  listen(listener: WakeListener): () => void {
    this.#listeners.add(listener);
    if (!this.#transport && !this.#closed) {
      const { db, log, redis, config } = this.deps;
      const wake: WakeListener = (workspaceId) => {
        for (const l of this.#listeners) l(workspaceId);
      };
      if (redis) this.#transport = redisTransport(redis, config.redisPrefix, wake);
      else if (db.connectDedicated) this.#transport = listenTransport(db.connectDedicated, log, wake);
    }
    return () => this.#listeners.delete(listener);
  }

  /** Stops listening to commits and closes the transport. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    this.deps.db.memo.eventWatchers.delete(this.#onCommit);
    const transport = this.#transport;
    this.#transport = null;
    await transport?.close();
  }
}
