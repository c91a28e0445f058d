import { describe, expect, it } from 'vitest';
import { cappedCountsNeedIndexOrder, plannerKnowsSelectivity, sortsRowsPinnedByIndex } from './planner.js';

describe('query planner differences', () => {
  it('only PostgreSQL keeps statistics that size plain status terms', () => {
    expect(plannerKnowsSelectivity('postgres')).toBe(true);
    expect(plannerKnowsSelectivity('sqlite')).toBe(false);
  });

  it('only SQLite sorts rows that an index equality already orders', () => {
    expect(sortsRowsPinnedByIndex('sqlite')).toBe(true);
    expect(sortsRowsPinnedByIndex('postgres')).toBe(false);
  });

  it('only PostgreSQL capped counts need an index order (its sequential scans read through a buffer ring)', () => {
    expect(cappedCountsNeedIndexOrder('postgres')).toBe(true);
    expect(cappedCountsNeedIndexOrder('sqlite')).toBe(false);
  });
});
