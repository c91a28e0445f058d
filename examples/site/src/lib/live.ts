/**
 * Live updates of published pages (docs/front-ends.md "The example site", D142). The site's server
 * subscribes to Quire's Live Content API with its production delivery key (`client.live.subscribe`);
 * each event's `tags` are Quire's opaque cache tags, and every cached answer whose `Cache-Tag`
 * carried one of them is dropped (a `reset` drops everything). Only then is the event passed on to
 * the open pages through the site's own stream (src/pages/api/live.ts), so the page that refetches
 * gets the new content, never the cached old one. The delivery key stays on the server.
 *
 * Which tags an answer carried is recorded without touching the client's API: the site's client
 * is given a `fetch` that adds each answer's `Cache-Tag` to the load running in the same async
 * context (`recordAnswerTags`), and each page render collects the tags of every answer it used
 * (`collectPageTags`), so the page knows which events concern it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { LiveEvent, QuireClient } from '@quire/client';
import type { TaggedCache } from './cache';

const answerTags = new AsyncLocalStorage<Set<string>>();
const pageTags = new AsyncLocalStorage<Set<string>>();

/** A `fetch` that records each answer's `Cache-Tag` (comma-separated) in the running load's set. */
export const recordingFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  const header = res.headers.get('Cache-Tag');
  const into = answerTags.getStore();
  if (header && into) for (const tag of header.split(',')) if (tag.trim()) into.add(tag.trim());
  return res;
};

/** Runs `load` and returns its value with the `Cache-Tag` values of the answers it read. */
export async function recordAnswerTags<T>(load: () => Promise<T>): Promise<{ value: T; quireTags: string[] }> {
  const into = new Set<string>();
  const value = await answerTags.run(into, load);
  return { value, quireTags: [...into] };
}

/** Runs a page render collecting the tags of every cached answer it shows (see `pageTagsSoFar`). */
export function collectPageTags<T>(render: () => Promise<T>): Promise<T> {
  return pageTags.run(new Set(), render);
}

/** Adds an answer's tags to the page being rendered (no-op outside `collectPageTags`). */
export function notePageTags(tags: Iterable<string>): void {
  const into = pageTags.getStore();
  if (into) for (const t of tags) into.add(t);
}

/** The tags the page being rendered has used so far (its data is read before its layout's end). */
export function pageTagsSoFar(): string[] {
  return [...(pageTags.getStore() ?? [])];
}

/** What the site's own stream sends an open page: Quire's event id and tags, or a reset. */
export interface PageEvent {
  type: LiveEvent['type'];
  id: string;
  tags: string[];
}

/**
 * One subscription to Quire per site process, fanned out to the open pages' streams. Started on
 * first use; every event first drops the matching cached answers, then reaches the listeners.
 */
export class LiveHub {
  private readonly listeners = new Set<(event: PageEvent) => void>();
  private stop: (() => void) | null = null;

  /** `enabled` false (SITE_LIVE_UPDATES=off): no subscription, no listeners. */
  constructor(
    private readonly client: QuireClient,
    private readonly cache: TaggedCache,
    readonly enabled: boolean,
  ) {}

  /** Subscribes to Quire (once); errors are logged and the client reconnects by itself. */
  start(): void {
    if (this.stop || !this.enabled) return;
    this.stop = this.client.live.subscribe((event) => this.deliver(event), {
      onError: (err) => console.warn(`quire live: ${err.message}`),
    });
  }

  /** Drops the cached answers an event touches, then tells every open page. */
  deliver(event: LiveEvent): void {
    if (event.type === 'reset') this.cache.clear();
    else this.cache.invalidate(event.tags);
    const out: PageEvent = { type: event.type, id: event.id, tags: event.tags };
    for (const listener of this.listeners) listener(out);
  }

  /** Adds a listener until the returned function is called. */
  listen(listener: (event: PageEvent) => void): () => void {
    this.start();
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
