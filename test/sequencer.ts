/**
 * The order test files start in (vitest.config.ts `sequence.sequencer`). Two workers take files
 * from the front of one queue, so the run ends when the last long file does: the projects whose
 * files run longest start first (server-isolated: the browser suites, each a server and Chromium
 * for a minute or more), then server, then studio (short component tests, which fill the tail).
 * Within a project Vitest's own order holds: files that failed last time, then the longest by
 * the previous run's durations, or, without them (a fresh clone in CI), the largest files first.
 *
 * Keeping a project's files together also keeps the non-isolated projects' workers: Vitest hands
 * a worker's module cache to the next file only when that file belongs to the same project.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Project names by when their files start; a project not listed starts last. */
const PROJECT_ORDER = ['server-isolated', 'server', 'studio'];

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = PROJECT_ORDER.indexOf(spec.project.name);
      return index === -1 ? PROJECT_ORDER.length : index;
    };
    // Array.prototype.sort is stable: Vitest's order holds within a project.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
