/**
 * The Studio's event stream (docs/workflow.md "Who else is here" (D133)): `GET
 * /api/v1/manage/events` streams of one instance (Studio sessions only), and one shared reader
 * per workspace that reads two tables after the last ids it saw, as the Live Content API's reader
 * (hub.ts) reads one: change events (`events`: entries and pages) and Studio activity
 * (`activity`: workflow changes, comments, notifications, presence). Frames:
 *
 * - `event: hello` `{stream, user}` first: the stream's id (for its presence PUT) and its person.
 *   There is no resume: a stream that reconnects gets a fresh hello and the Studio refetches.
 * - `event: item` `{item: {kind, id, content_type, slug}, type, by}` for a change of an entry or
 *   page the person may read (the one check, src/modules/access/authorize.ts: a custom role
 *   limited to some types hears nothing of the others); `by` is the person who acted when the
 *   row knows it (workflow activity), null for change events (they do not record who), which
 *   carry the item's history `version` after the change instead (an editor compares it with its own).
 * - `event: comment` `{item, comment_id, action}` likewise for comments of readable items.
 * - `event: notification` `<Notification>` to the streams of the person told only.
 * - `event: presence` `{item, people}` to the streams whose Studio shows that item. Which item a
 *   stream shows is learnt from the presence activity rows themselves (their `stream` and `left`
 *   ids, stripped from the frame), so a presence PUT served by another instance reaches the
 *   instance holding the stream in commit order (src/modules/presence/operations.ts).
 * - `: ping` every LIVE_HEARTBEAT_MS. With it the instance refreshes its streams' presence rows in
 *   one UPDATE (a stream whose row was swept meanwhile is ended, so its Studio reconnects and says
 *   again what it shows) and sweeps expired rows of any instance.
 *
 * Wake-ups are the instance's shared ones (wake-ups.ts: this process's commits, PostgreSQL
 * LISTEN/NOTIFY or Redis), plus a read every LIVE_POLL_MS. Bounds: STUDIO_MAX_STREAMS_PER_PERSON
 * streams per person on this instance (more: 429); a stream whose unsent output passes
 * MAX_BACKLOG_BYTES is ended; rows are read READ_BATCH at a time. A stream reads with the role its
 * person had when it opened; every heartbeat ends the streams whose session ended or whose
 * person left the workspace or changed role (their Studio reconnects with the new role).
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Db } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/time.js';
import { canReadType, decideItem } from '../access/authorize.js';
import { lastActivityId, listActivityAfter, type ActivityRecord } from '../activity/repository.js';
import type { Actor } from '../auth/permissions.js';
import { lastEventId, listEventsAfter, type EventRecord } from '../events/repository.js';
import type { Person } from '../notifications/model.js';
import { closePresence, openPresence, presenceExpiry, releaseInstancePresence, sweepPresence } from '../presence/operations.js';
import { findPerson, instanceStreams, refreshInstancePresence } from '../presence/repository.js';
import { MAX_BACKLOG_BYTES, type LiveSink } from './hub.js';
import type { WakeUps } from './wake-ups.js';
import { staleStreams } from './studio-sessions.js';

/** Rows read per query. */
const READ_BATCH = 500;

/** The settings the hub reads (src/config.ts). */
export type StudioSettings = Pick<Config, 'liveHeartbeatMs' | 'livePollMs' | 'studioMaxStreamsPerPerson'>;

export interface StudioDeps {
  db: Db;
  log: Logger;
  clock: Clock;
  config: StudioSettings;
  wakeUps: WakeUps;
}

/** One open Studio stream. */
export interface StudioSubscriber {
  actor: Actor;
  person: Person;
  streamId: string;
  sink: LiveSink;
  /** `kind:id` of the item its Studio shows (as the presence rows say), or null. */
  item: string | null;
  /** Its presence row is stored (the heartbeat's refresh counts only these). */
  stored: boolean;
}

/** An SSE frame `event: <name>` carrying `data`. */
export function studioFrame(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Whether `actor` may read an entry of `contentType` (null: unknown type, unreadable) or a page. */
function mayRead(actor: Actor, kind: string | null, contentType: string | null): boolean {
  if (kind === 'entry') return contentType !== null && canReadType(actor, contentType);
  if (kind === 'page') return decideItem(actor, { resource: 'pages', action: 'read' }) === null;
  return false;
}

const itemKey = (kind: unknown, id: unknown) => `${String(kind)}:${String(id)}`;

/** The `item` frame of a change event of an entry or page, or null for other events. */
function eventItemFrame(e: EventRecord): { kind: string; contentType: string | null; text: string } | null {
  if (e.itemKind !== 'entry' && e.itemKind !== 'page') return null;
  return {
    kind: e.itemKind,
    contentType: e.contentType,
    text: studioFrame('item', {
      item: { kind: e.itemKind, id: e.itemId, content_type: e.contentType, slug: e.slug },
      type: e.type,
      by: null,
      version: e.version,
    }),
  };
}

/** The frame an activity row becomes (module comment); null for a type this stream does not carry. */
function activityFrame(row: ActivityRecord): string | null {
  const item = row.itemKind !== null ? { kind: row.itemKind, id: row.itemId, content_type: row.contentType, slug: null } : null;
  switch (row.type) {
    case 'item':
    case 'comment':
      return studioFrame(row.type, { ...row.data, item: row.data.item ?? item });
    case 'notification':
      return studioFrame('notification', row.data.notification ?? row.data);
    case 'presence':
      return studioFrame('presence', { item: row.data.item, people: row.data.people ?? [] });
    default:
      return null;
  }
}

/** The shared reader of one workspace: its positions in both tables and its streams, one task at a time. */
class StudioReader {
  readonly subscribers = new Set<StudioSubscriber>();
  members = 0;
  events = -1;
  activity = -1;
  #chain: Promise<void> = Promise.resolve();
  #readQueued = false;

  constructor(
    readonly workspaceId: string,
    private readonly hub: StudioHub,
  ) {}

  async #locate(): Promise<void> {
    const { db } = this.hub.deps;
    if (this.events < 0) this.events = await lastEventId(db, this.workspaceId);
    if (this.activity < 0) this.activity = await lastActivityId(db, this.workspaceId);
  }

  #task(fn: () => Promise<void>): Promise<void> {
    this.#chain = this.#chain.then(fn).catch((err: unknown) => {
      this.hub.deps.log.warn({ err: err instanceof Error ? err.message : String(err), workspace: this.workspaceId }, 'studio events: read failed');
    });
    return this.#chain;
  }

  /** Reads what was committed since the last read (once, however often it is woken before it runs). */
  wake(): void {
    if (this.#readQueued) return;
    this.#readQueued = true;
    void this.#task(async () => {
      this.#readQueued = false;
      if (this.events < 0 || this.activity < 0) {
        // The positions could not be read: what changed meanwhile is unknown, so every stream
        // starts over (its Studio reconnects, gets a fresh hello and refetches).
        await this.#locate();
        for (const s of [...this.subscribers]) this.hub.end(s);
        return;
      }
      for (;;) {
        const { db } = this.hub.deps;
        const events = await listEventsAfter(db, this.workspaceId, this.events, READ_BATCH);
        const activity = await listActivityAfter(db, this.workspaceId, this.activity, READ_BATCH);
        if (events.length === 0 && activity.length === 0) return;
        if (events.length > 0) this.events = events[events.length - 1].id;
        if (activity.length > 0) this.activity = activity[activity.length - 1].id;
        this.#deliver(events, activity);
        if (events.length < READ_BATCH && activity.length < READ_BATCH) return;
      }
    });
  }

  /** Hands each stream the frames it may see of one read, in one write. */
  #deliver(events: readonly EventRecord[], activity: readonly ActivityRecord[]): void {
    const out = new Map<StudioSubscriber, string[]>();
    const add = (s: StudioSubscriber, text: string) => {
      const list = out.get(s);
      if (list) list.push(text);
      else out.set(s, [text]);
    };
    for (const e of events) {
      const frame = eventItemFrame(e);
      if (!frame) continue;
      for (const s of this.subscribers) if (mayRead(s.actor, frame.kind, frame.contentType)) add(s, frame.text);
    }
    for (const row of activity) {
      if (row.type === 'presence') this.#follow(row);
      const text = activityFrame(row);
      if (text === null) continue;
      const key = itemKey(row.itemKind, row.itemId);
      for (const s of this.subscribers) {
        if (row.userId !== null && row.userId !== s.actor.userId) continue;
        if (row.type === 'presence' ? s.item === key : row.type === 'notification' ? row.userId !== null : mayRead(s.actor, row.itemKind, row.contentType))
          add(s, text);
      }
    }
    for (const [s, texts] of out) this.hub.send(s, texts.join(''));
  }

  /** Moves the streams a presence row names onto (`stream`) or off (`left`) its item. */
  #follow(row: ActivityRecord): void {
    const key = itemKey(row.itemKind, row.itemId);
    const left = Array.isArray(row.data.left) ? (row.data.left as unknown[]) : [];
    for (const s of this.subscribers) {
      if (left.includes(s.streamId) && s.item === key) s.item = null;
      if (row.data.stream === s.streamId) s.item = key;
    }
  }

  /** Adds `sub` once the positions are known, sending `hello` first. */
  join(sub: StudioSubscriber, hello: string): Promise<void> {
    return this.#task(async () => {
      try {
        await this.#locate();
      } catch (err) {
        this.hub.end(sub);
        throw err;
      }
      if (!this.hub.isOpen(sub)) return;
      this.hub.send(sub, hello);
      this.subscribers.add(sub);
    });
  }
}

/**
 * The Studio event streams of one app and their workspaces' readers (ctx.studio). The wake-up
 * listener and timers start with the first stream; close() ends every stream and deletes this
 * instance's presence rows.
 */
export class StudioHub {
  /** This instance's name in presence rows. */
  readonly instance = randomBytes(9).toString('base64url');
  readonly #readers = new Map<string, StudioReader>();
  readonly #perPerson = new Map<number, number>();
  readonly #open = new Set<StudioSubscriber>();
  readonly #pending = new Set<Promise<void>>();
  #unlisten: (() => void) | null = null;
  #heartbeat: NodeJS.Timeout | undefined;
  #poll: NodeJS.Timeout | undefined;
  #maintaining: Promise<void> | null = null;
  #started = false;
  #closed = false;

  constructor(readonly deps: StudioDeps) {}

  /** Streams open on this instance. */
  get size(): number {
    return this.#open.size;
  }

  /** The open streams (tests, and the heartbeat's checks). */
  streams(): readonly StudioSubscriber[] {
    return [...this.#open];
  }

  /** 429 RATE_LIMITED past STUDIO_MAX_STREAMS_PER_PERSON on this instance; 503 once closing. */
  admit(actor: Actor): void {
    if (this.#closed) throw new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down; retry shortly');
    const max = this.deps.config.studioMaxStreamsPerPerson;
    if ((this.#perPerson.get(actor.userId) ?? 0) >= max)
      throw new AppError('RATE_LIMITED', `You already have ${max} Studio event streams open on this server; close a Studio tab first`);
  }

  /**
   * Opens a stream for `actor` (a Studio session) into `sink`: stores its presence row, joins the
   * workspace's reader and sends `hello`. Returns the stream id and the function that ends it
   * (call it when the client goes away).
   */
  async start(actor: Actor, sink: LiveSink): Promise<{ streamId: string; stop: () => void }> {
    this.admit(actor);
    this.#startShared();
    const { db } = this.deps;
    const person = (await findPerson(db, actor.userId)) ?? { id: actor.userId, email: actor.label ?? '', name: null };
    const streamId = randomBytes(18).toString('base64url');
    const sub: StudioSubscriber = { actor, person, streamId, sink, item: null, stored: false };
    this.admit(actor);
    this.#open.add(sub);
    this.#perPerson.set(actor.userId, (this.#perPerson.get(actor.userId) ?? 0) + 1);
    let reader = this.#readers.get(actor.workspaceId);
    if (!reader) {
      reader = new StudioReader(actor.workspaceId, this);
      this.#readers.set(actor.workspaceId, reader);
    }
    reader.members += 1;
    try {
      await openPresence(this.deps, actor, streamId, this.instance);
      sub.stored = true;
    } catch (err) {
      this.#leave(sub, true, false);
      throw err;
    }
    await reader.join(sub, studioFrame('hello', { stream: streamId, user: person }));
    return { streamId, stop: () => this.#leave(sub, false, true) };
  }

  isOpen(sub: StudioSubscriber): boolean {
    return this.#open.has(sub);
  }

  /** Ends `sub`'s stream (its presence row goes). */
  end(sub: StudioSubscriber): void {
    this.#leave(sub, true, true);
  }

  /** Writes `frame` to `sub`, ending it when its backlog passes MAX_BACKLOG_BYTES. */
  send(sub: StudioSubscriber, frame: string): void {
    if (!this.#open.has(sub)) return;
    if (sub.sink.write(frame) > MAX_BACKLOG_BYTES) this.#leave(sub, true, true);
  }

  /**
   * Ends every stream, deletes their presence rows (telling the people on their items: one
   * transaction per workspace, not one per stream) and stops the timers.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const held = this.#open.size > 0;
    for (const sub of [...this.#open]) this.#leave(sub, true, false);
    clearInterval(this.#heartbeat);
    clearInterval(this.#poll);
    this.#unlisten?.();
    this.#unlisten = null;
    if (this.#maintaining) await this.#maintaining;
    await Promise.all([...this.#pending]);
    if (held || this.#started)
      await releaseInstancePresence(this.deps, this.instance).catch((err: unknown) => {
        // They expire and are swept by another instance instead.
        this.deps.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'studio events: presence not removed at close');
      });
  }

  #leave(sub: StudioSubscriber, end: boolean, presence: boolean): void {
    if (!this.#open.delete(sub)) return;
    const { userId, workspaceId } = sub.actor;
    const left = (this.#perPerson.get(userId) ?? 1) - 1;
    if (left > 0) this.#perPerson.set(userId, left);
    else this.#perPerson.delete(userId);
    const reader = this.#readers.get(workspaceId);
    if (reader) {
      reader.subscribers.delete(sub);
      reader.members -= 1;
      if (reader.members === 0) this.#readers.delete(workspaceId);
    }
    if (end) sub.sink.end();
    if (presence) {
      const done: Promise<void> = closePresence(this.deps, workspaceId, sub.streamId)
        .catch((err: unknown) => {
          // The row expires and is swept instead.
          this.deps.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'studio events: presence not removed');
        })
        .finally(() => this.#pending.delete(done));
      this.#pending.add(done);
    }
  }

  #startShared(): void {
    if (this.#started) return;
    this.#started = true;
    const { config } = this.deps;
    const wake = (workspaceId: string | null) => {
      if (workspaceId === null) for (const r of this.#readers.values()) r.wake();
      else this.#readers.get(workspaceId)?.wake();
    };
    this.#unlisten = this.deps.wakeUps.listen(wake);
    this.#heartbeat = setInterval(() => {
      for (const sub of this.#open) this.send(sub, ': ping\n\n');
      if (!this.#maintaining && !this.#closed)
        this.#maintaining = this.#maintain()
          .catch((err: unknown) => this.deps.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'studio events: presence upkeep failed'))
          .finally(() => {
            this.#maintaining = null;
          });
    }, config.liveHeartbeatMs);
    this.#heartbeat.unref();
    this.#poll = setInterval(() => wake(null), config.livePollMs);
    this.#poll.unref();
  }

  /** The heartbeat's upkeep: refresh this instance's rows, end streams whose row or session is gone, sweep expired rows. */
  async #maintain(): Promise<void> {
    const { db, clock } = this.deps;
    const open = [...this.#open].filter((s) => s.stored);
    const held = await refreshInstancePresence(db, this.instance, presenceExpiry(this.deps, clock()));
    if (held < open.length) {
      const rows = await instanceStreams(db, this.instance);
      for (const sub of open) if (!rows.has(sub.streamId) && this.#open.has(sub)) this.end(sub);
    }
    for (const sub of await staleStreams(db, clock(), [...this.#open])) this.end(sub);
    await sweepPresence(this.deps);
  }
}
