/**
 * Expected import report counts for the Contentful importer's tests: every count zero unless
 * given, so each test states only what it expects to be non-zero.
 */
import type { StateCounts } from '../src/modules/import/contentful/states.js';

type Run = Partial<Record<'created' | 'updated' | 'unchanged' | 'published' | 'unpublished' | 'archived' | 'failed', number>>;

const zeroStates = (states: Partial<StateCounts>): StateCounts => ({ draft: 0, published: 0, changed: 0, archived: 0, ...states });
const zeroRun = (total: number, run: Run) => ({ total, created: 0, updated: 0, unchanged: 0, published: 0, unpublished: 0, archived: 0, failed: 0, ...run });

/** The report's `entries` for `total` entries. */
export function entryCounts(total: number, run: Run, states: Partial<StateCounts>) {
  return { ...zeroRun(total, run), states: zeroStates(states) };
}

/** The report's `pages` for `total` pages with `blocks` blocks. */
export function pageCounts(total: number, run: Run & { blocks?: number; draft_blocks?: number }, states: Partial<StateCounts>) {
  const { blocks = 0, draft_blocks = 0, ...rest } = run;
  return { ...zeroRun(total, rest), blocks, draft_blocks, states: zeroStates(states) };
}
