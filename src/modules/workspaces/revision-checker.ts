/**
 * The workspace revision check of cached answers, on PostgreSQL, without a pooled connection.
 *
 * Every request served from a cache (an authenticated key, a delivery response) first reads its
 * workspace's revisions, which triggers bump on every write (migrations 004 and 005), so a write
 * on any instance is seen by every other on its next request. Through the pool, that read waits
 * for a free connection like any query: with every connection held by slow queries, cached
 * answers waited too, and throughput fell to nothing.
 *
 * Here the check runs on one connection of its own (Db.connectDedicated), in batches: a request
 * joins the next batch, which starts as soon as the previous one has answered, and one query
 * (`WHERE id = ANY($1)`) answers every workspace of the batch. A batch starts after each of its
 * requests arrived, so it reads every write committed before any of them: the answer is as fresh
 * as a query of its own, and requests arriving together share one round trip. (Notifications
 * alone, LISTEN/NOTIFY, would cost no round trip, but they reach an instance at no defined moment
 * after the commit: a client that wrote through one instance and read at once through another
 * could get the stale answer.)
 *
 * When the connection is down, or a batch gets no answer within CHECK_TIMEOUT_MS, check()
 * answers `undefined` and the caller reads through the pool as before (cached answers are then
 * unverified and not served on their own); the connection is opened again at most once a second.
 */
import type { Client } from 'pg';
import type { Logger } from 'pino';
import type { WorkspaceRevisions } from './repository.js';

/** Longest a batch may take before its requests fall back to the pool. */
const CHECK_TIMEOUT_MS = 2_000;
/** Pause before opening the connection again after it failed. */
const RETRY_MS = 1_000;

type Answer = WorkspaceRevisions | null | undefined;

export class RevisionChecker {
  #client: Client | null = null;
  #connecting: Promise<Client> | null = null;
  #retryAt = 0;
  #running = false;
  #closed = false;
  /** Set from a failure until a batch is answered again: one warning per outage. */
  #down = false;
  /** The next batch: resolvers by workspace id. */
  #waiting = new Map<string, ((answer: Answer) => void)[]>();

  constructor(
    private readonly connect: () => Promise<Client>,
    private readonly log: Logger,
  ) {}

  /**
   * The workspace's revisions read after this call, null when it does not exist, or undefined
   * when the dedicated connection cannot answer now (read them through the pool instead).
   */
  check(workspaceId: string): Promise<Answer> {
    if (this.#closed || (this.#client === null && Date.now() < this.#retryAt)) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiters = this.#waiting.get(workspaceId);
      if (waiters) waiters.push(resolve);
      else this.#waiting.set(workspaceId, [resolve]);
      if (!this.#running) void this.#run();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#answerAll(this.#waiting, () => undefined);
    this.#waiting = new Map();
    const client = this.#client ?? (await this.#connecting?.catch(() => null));
    this.#client = null;
    await client?.end().catch(() => {});
  }

  async #run(): Promise<void> {
    this.#running = true;
    try {
      while (this.#waiting.size > 0 && !this.#closed) {
        const batch = this.#waiting;
        this.#waiting = new Map();
        let rows: Map<string, WorkspaceRevisions> | null = null;
        try {
          rows = await this.#query([...batch.keys()]);
          if (this.#down) this.log.info('revision check connection back');
          this.#down = false;
        } catch (err) {
          this.#drop(err);
        }
        this.#answerAll(batch, (id) => (rows ? (rows.get(id) ?? null) : undefined));
      }
    } finally {
      this.#running = false;
    }
  }

  async #query(ids: string[]): Promise<Map<string, WorkspaceRevisions>> {
    const client = await this.#open();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
    });
    try {
      const res = await Promise.race([
        // A named (prepared) statement: PostgreSQL parses and plans it once per connection, not
        // once per batch, on the path every cached answer takes.
        client.query<{ id: string; revision: string | number; draft_revision: string | number }>({
          name: 'quire_revision_check',
          text: 'SELECT id, revision, draft_revision FROM workspaces WHERE id = ANY($1::text[])',
          values: [ids],
        }),
        timeout,
      ]);
      return new Map(res.rows.map((r) => [r.id, { revision: Number(r.revision), draft: Number(r.draft_revision) }]));
    } finally {
      clearTimeout(timer);
    }
  }

  async #open(): Promise<Client> {
    if (this.#client) return this.#client;
    this.#connecting ??= this.connect().then(
      (client) => {
        client.on('error', (err) => this.#drop(err));
        client.on('end', () => this.#client === client && this.#drop(new Error('connection ended')));
        this.#client = client;
        this.#connecting = null;
        return client;
      },
      (err: unknown) => {
        this.#connecting = null;
        throw err;
      },
    );
    return this.#connecting;
  }

  /** Forgets a failed connection; requests use the pool until it is opened again. */
  #drop(err: unknown): void {
    const client = this.#client;
    this.#client = null;
    this.#retryAt = Date.now() + RETRY_MS;
    if (client) void client.end().catch(() => {});
    if (this.#closed || this.#down) return;
    this.#down = true;
    this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'revision check connection lost; checking through the pool meanwhile');
  }

  #answerAll(batch: Map<string, ((answer: Answer) => void)[]>, answer: (id: string) => Answer): void {
    for (const [id, waiters] of batch) for (const resolve of waiters) resolve(answer(id));
  }
}
