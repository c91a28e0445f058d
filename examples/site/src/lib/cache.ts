/**
 * The site's small in-memory cache of delivery answers. Each value carries tags naming what it was
 * built from: the site's own (`entry:<id>`, `type:<content type>`, `page:<slug>`, `pages`,
 * `schema`), which a webhook names (src/pages/api/revalidate.ts), and Quire's `Cache-Tag` values
 * of the answers read, which a live event names (src/lib/live.ts); either drops exactly the
 * answers that showed the change, and the next request reads Quire again. Values also expire
 * after `ttlMs` (a safety net when no webhook or live stream is configured), and at most
 * `maxEntries` are kept, least recently used dropped first.
 *
 * Concurrent misses for one key share one load, so a burst of requests after a webhook reaches
 * Quire once.
 */

interface Slot {
  value: unknown;
  tags: ReadonlySet<string>;
  expires: number;
}

export interface Loaded<T> {
  value: T;
  /** What the value was built from; see the module comment. */
  tags: readonly string[];
}

export class TaggedCache {
  private readonly slots = new Map<string, Slot>();
  private readonly pending = new Map<string, Promise<Loaded<unknown>>>();
  /** Bumped by every invalidation: a load that started before one does not store its value. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 500,
  ) {}

  /**
   * The cached value of `key`, or `load()`'s, stored with its tags. `isValue` checks what the map
   * holds, so a value comes back typed without a cast. A ttl of 0 turns caching off. `onTags`, when
   * given, hears the tags of the value returned (cached or loaded), so a page knows what it shows.
   */
  async get<T>(key: string, isValue: (v: unknown) => v is T, load: () => Promise<Loaded<T>>, onTags?: (tags: Iterable<string>) => void): Promise<T> {
    const now = Date.now();
    const slot = this.slots.get(key);
    if (slot && slot.expires > now && isValue(slot.value)) {
      // Re-inserting moves the key to the end: the Map's order is the recency order.
      this.slots.delete(key);
      this.slots.set(key, slot);
      onTags?.(slot.tags);
      return slot.value;
    }
    const running = this.pending.get(key);
    if (running) {
      const loaded = await running;
      if (isValue(loaded.value)) {
        onTags?.(loaded.tags);
        return loaded.value;
      }
    }
    const started = this.generation;
    const promise = load().then((loaded): Loaded<unknown> => {
      if (this.ttlMs > 0 && started === this.generation) this.store(key, loaded);
      return loaded;
    });
    this.pending.set(key, promise);
    try {
      const loaded = await promise;
      onTags?.(loaded.tags);
      // load() produced a T; the map only widened it.
      if (isValue(loaded.value)) return loaded.value;
      throw new Error(`cache: the value loaded for ${key} does not have the expected shape`);
    } finally {
      if (this.pending.get(key) === promise) this.pending.delete(key);
    }
  }

  private store(key: string, loaded: Loaded<unknown>): void {
    this.slots.delete(key);
    this.slots.set(key, { value: loaded.value, tags: new Set(loaded.tags), expires: Date.now() + this.ttlMs });
    while (this.slots.size > this.maxEntries) {
      const oldest = this.slots.keys().next();
      if (oldest.done) break;
      this.slots.delete(oldest.value);
    }
  }

  /** Drops every value carrying one of `tags`; returns how many were dropped. */
  invalidate(tags: readonly string[]): number {
    const wanted = new Set(tags);
    let dropped = 0;
    for (const [key, slot] of this.slots) {
      if ([...slot.tags].some((t) => wanted.has(t))) {
        this.slots.delete(key);
        dropped++;
      }
    }
    this.forgetRunningLoads();
    return dropped;
  }

  /** Drops everything (a change of the content model); returns how many values were dropped. */
  clear(): number {
    const n = this.slots.size;
    this.slots.clear();
    this.forgetRunningLoads();
    return n;
  }

  // A load that started before a change may have read the old content: it must neither be
  // shared with later requests nor stored.
  private forgetRunningLoads(): void {
    this.generation++;
    this.pending.clear();
  }

  get size(): number {
    return this.slots.size;
  }
}
