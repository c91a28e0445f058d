/**
 * Folder paths of the media library as the server defines them (docs/media.md "Folders", D52):
 * `/`-separated segments of lowercase letters, digits, `_` and `-` (at most 8 levels, 64
 * characters a segment, 200 in all). Folders exist through their assets only, so the Studio
 * lists what GET /media/folders returns plus every parent of those paths.
 */
import type { MediaFolder } from '../../fields/sources';

const SEGMENT = /^[a-z0-9_-]{1,64}$/;

/** Why `value` is not a folder path, or null when it is one ('' is the root). */
export function folderProblem(value: string): string | null {
  if (value === '') return null;
  if (value.length > 200) return 'At most 200 characters.';
  const segments = value.split('/');
  if (segments.length > 8) return 'At most 8 levels.';
  if (segments.some((s) => !SEGMENT.test(s))) return 'Use lowercase letters, digits, _ and -, with / between levels (e.g. blog/2026).';
  return null;
}

/** Every folder path to offer: the listed folders and all their parents, sorted. */
export function folderPaths(folders: readonly MediaFolder[]): string[] {
  const all = new Set<string>();
  for (const { folder } of folders) {
    const parts = folder.split('/');
    for (let i = 1; i <= parts.length; i++) all.add(parts.slice(0, i).join('/'));
  }
  return [...all].sort();
}

/** The folder filter's value for "every folder" (the API's absent `folder`). */
export const ALL_FOLDERS = '*';

/** Select options of the folder filter: every folder, the root, then the paths indented by depth. */
export function folderOptions(folders: readonly MediaFolder[]): { value: string; label: string }[] {
  const counts = new Map(folders.map((f) => [f.folder, f.count]));
  return [
    { value: ALL_FOLDERS, label: 'All folders' },
    { value: '', label: 'No folder (top level)' },
    ...folderPaths(folders).map((path) => {
      const depth = path.split('/').length - 1;
      const name = path.split('/').pop() ?? path;
      const n = counts.get(path);
      return { value: path, label: `${'\u2003'.repeat(depth)}${name}${n ? ` (${n})` : ''}` };
    }),
  ];
}
