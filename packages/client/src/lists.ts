/**
 * Walking paginated lists (docs/api.md "Pagination"): every list answer carries
 * `meta.next_cursor` (null on the last page), in offset mode too, so an iterator asks for the
 * first page and then follows the cursors, never counting pages.
 */
import type { ListPage } from './types.js';
import type { PageMeta } from './wire.js';

/** A ListPage from an answer's items and meta. */
export function listPage<T>(items: T[], meta: PageMeta | null): ListPage<T> {
  const m = meta ?? { page_size: items.length, next_cursor: null };
  return { items, meta: m, nextCursor: m.next_cursor ?? null };
}

/**
 * Every item of a cursor-paginated list, page after page: `fetchPage(cursor)` is called first
 * with the caller's cursor (usually undefined), then with each `nextCursor` until there is none.
 */
export async function* followCursors<T>(fetchPage: (cursor: string | undefined) => Promise<ListPage<T>>, first?: string): AsyncGenerator<T, void, undefined> {
  let cursor = first;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.items;
    if (!page.nextCursor || page.items.length === 0) return;
    cursor = page.nextCursor;
  }
}

/** Every item of an offset-paginated list without cursors (management pages): page 1, 2, ... until total_pages. */
export async function* followPages<T>(fetchPage: (page: number) => Promise<ListPage<T>>): AsyncGenerator<T, void, undefined> {
  for (let n = 1; ; n++) {
    const page = await fetchPage(n);
    yield* page.items;
    const total = page.meta.total_pages;
    if (page.items.length === 0 || total === undefined || n >= total) return;
  }
}
