/**
 * Offset pagination (docs/api.md "Pagination"; docs/security.md "Limits and their settings"): page
 * 1-based, at most 1000 (400
 * PAGE_TOO_DEEP above), limit 1..100 (default 10).
 */
import { AppError, invalid } from '../errors.js';

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;
export const MAX_PAGE = 1000;

export interface OffsetPage {
  page: number;
  limit: number;
  offset: number;
}

/** Validates page/limit (already integers from the query schema) into an offset window. */
export function offsetPage(page: number | undefined, limit: number | undefined): OffsetPage {
  const p = page ?? 1;
  const l = limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(l) || l < 1 || l > MAX_LIMIT) throw invalid('query.limit', `must be an integer from 1 to ${MAX_LIMIT}`);
  if (!Number.isInteger(p) || p < 1) throw invalid('query.page', 'must be an integer of at least 1');
  if (p > MAX_PAGE) throw new AppError('PAGE_TOO_DEEP', `page may not exceed ${MAX_PAGE}; use cursor pagination (meta.next_cursor) to go deeper`);
  return { page: p, limit: l, offset: (p - 1) * l };
}

export interface OffsetMeta {
  total_data: number;
  current_page: number;
  page_size: number;
  total_pages: number;
  next_cursor: string | null;
  locale_requested?: string;
}

/** The meta of an offset-mode list response. */
export function offsetMeta(window: OffsetPage, total: number, returned: number, nextCursor: string | null = null): OffsetMeta {
  return {
    total_data: total,
    current_page: window.page,
    page_size: returned,
    total_pages: Math.ceil(total / window.limit),
    next_cursor: nextCursor,
  };
}
