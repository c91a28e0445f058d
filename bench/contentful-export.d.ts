// Types of bench/contentful-export.js for the TypeScript suites that use it.
import type { CfEntry } from '../src/modules/import/contentful/export.js';

export interface SyntheticCounts {
  authors: number;
  categories: number;
  articles: number;
  assets: number;
}
export function syntheticCounts(total: number): SyntheticCounts;
export function syntheticEntries(total: number): Generator<CfEntry>;
export function writeSyntheticExport(file: string, total: number): Promise<SyntheticCounts & { bytes: number; entries: number }>;
