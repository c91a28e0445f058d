/**
 * Media folders (docs/media.md "Storage" (D52)): a folder is one or more `/`-separated segments of
 * `[a-z0-9_-]` (at most 8 segments of 64 characters, 200 in all). Nothing else is accepted, so
 * `..`, `.`, absolute paths, backslashes, percent-encoded or Unicode tricks all answer 400 and a
 * folder can never point outside the storage root. An empty value (or null) is the root.
 */
import { invalid } from '../../errors.js';

const SEGMENT = /^[a-z0-9_-]{1,64}$/;
export const MAX_FOLDER_LENGTH = 200;
export const MAX_FOLDER_DEPTH = 8;

/** Why `value` is not a folder name, or null when it is one. */
export function folderProblem(value: string): string | null {
  if (value.length > MAX_FOLDER_LENGTH) return `must be at most ${MAX_FOLDER_LENGTH} characters`;
  const segments = value.split('/');
  if (segments.length > MAX_FOLDER_DEPTH) return `may have at most ${MAX_FOLDER_DEPTH} levels`;
  if (segments.some((s) => !SEGMENT.test(s))) {
    return 'must be path segments of lowercase letters, digits, _ and - separated by / (no leading, trailing or double /, no dots)';
  }
  return null;
}

/**
 * Validates a folder from a request at `path` (e.g. `body.folder`): returns the folder, or null
 * for the root ('' or null); throws 400 VALIDATION_FAILED otherwise.
 */
export function parseFolder(value: string | null | undefined, path: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  const problem = folderProblem(value);
  if (problem) throw invalid(path, problem);
  return value;
}
