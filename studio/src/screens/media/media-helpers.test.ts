/** Folder paths (the server's rule, parents derived) and focal-point crop arithmetic of the Media screen. */
import { describe, expect, it } from 'vitest';
import type { MediaAsset } from '../../api/types';
import { changesOf, usedBy } from './AssetDetail';
import { clampUnit, coverPosition, cropUrl } from './focal';
import { ALL_FOLDERS, folderOptions, folderPaths, folderProblem } from './folders';

describe('media folders', () => {
  it('accepts what the server accepts and explains the rest', () => {
    for (const ok of ['', 'blog', 'blog/2026', 'brand_assets/logos-2']) expect(folderProblem(ok)).toBeNull();
    for (const bad of ['Blog', 'a//b', '/a', 'a/', '../x', 'a b', 'ä', 'a/b/c/d/e/f/g/h/i', 'x'.repeat(65)]) expect(folderProblem(bad)).not.toBeNull();
  });
  it('offers every folder and its parents, indented, after "all" and the top level', () => {
    const folders = [
      { folder: 'blog/2026', count: 3 },
      { folder: 'brand', count: 1 },
    ];
    expect(folderPaths(folders)).toEqual(['blog', 'blog/2026', 'brand']);
    expect(folderOptions(folders)).toEqual([
      { value: ALL_FOLDERS, label: 'All folders' },
      { value: '', label: 'No folder (top level)' },
      { value: 'blog', label: 'blog' },
      { value: 'blog/2026', label: '\u20032026 (3)' },
      { value: 'brand', label: 'brand (1)' },
    ]);
  });
});

describe('focal point crops', () => {
  it('centres the cut on the point and clamps it to the edges, like the server', () => {
    // 800×400 into a 100×100 box: scaled to 200×100, 100 px free horizontally.
    expect(coverPosition(800, 400, 100, 100, { x: 0.5, y: 0.5 })).toEqual({ x: 50, y: 50 });
    expect(coverPosition(800, 400, 100, 100, { x: 0.25, y: 0.5 })).toEqual({ x: 0, y: 50 });
    expect(coverPosition(800, 400, 100, 100, { x: 0.6, y: 0.1 })).toEqual({ x: 70, y: 50 });
    expect(coverPosition(800, 400, 100, 100, { x: 1, y: 1 })).toEqual({ x: 100, y: 50 });
    expect(clampUnit(1.7)).toBe(1);
    expect(clampUnit(0.12345)).toBe(0.123);
    expect(cropUrl('http://q.test/m/a.png', 320, 180)).toBe('http://q.test/m/a.png?w=320&h=180&fit=cover');
  });
  it('sends only what changed, with the focal point as a pair and blank texts as null', () => {
    const asset = { original_name: 'a.png', alt_text: null, title: 'Team', description: null, folder: null, focal_x: 0.5, focal_y: 0.5 } as MediaAsset;
    const same = { name: 'a.png', title: 'Team', description: '', alt: '', folder: '', focal: { x: 0.5, y: 0.5 } };
    expect(changesOf(asset, same)).toEqual({});
    expect(changesOf(asset, { ...same, name: ' b.png ', alt: 'Alt', folder: 'x', focal: { x: 0.5, y: 0.2 } })).toEqual({
      original_name: 'b.png',
      alt_text: 'Alt',
      folder: 'x',
      focal_x: 0.5,
      focal_y: 0.2,
    });
    expect(changesOf(asset, { ...same, name: '', focal: null })).toEqual({ focal_x: null, focal_y: null });
    expect(changesOf(asset, { ...same, title: '  ', description: 'Shot in Berlin\nby Ada' })).toEqual({ title: null, description: 'Shot in Berlin\nby Ada' });
  });
  it('says how many entries and pages use an asset, leaving out zeros', () => {
    expect(usedBy(1, 0)).toBe('Used by 1 entry');
    expect(usedBy(2, 1)).toBe('Used by 2 entries and 1 page');
    expect(usedBy(0, 3)).toBe('Used by 3 pages');
  });
});
