/**
 * Checks a release as it will be before it is published (docs/releases.md "Publishing"; D112):
 * every problem of every item, so that the 422 RELEASE_INVALID answer lists them all.
 *
 * - `publish` items: the variant's required fields (entries: `data`; pages: every block's data,
 *   D22), its unique values (among the release's variants of the type, against the working
 *   copies of the type's other entries, which the unique indexes guard, and against the published
 *   values of entries the release leaves alone), and its relations (entries and page blocks):
 *   each related entry must be visible to production readers after the release, i.e. published
 *   by it, or published now (or due, D21) and not unpublished by it.
 * - `unpublish` items: the item must be published (or scheduled) now (D20).
 *
 * Paths are `<kind>.<id>.<field path>` (`entry.<id>.data.title`, `page.<id>.blocks.0.data.cta`;
 * `<kind>.<id>` for the item itself); messages name the item by slug (and an entry's type).
 */
import type { Db } from '../../db/types.js';
import type { ErrorDetail } from '../../errors.js';
import type { ContentType } from '../content-types/model.js';
import { listAllContentTypes } from '../content-types/repository.js';
import { uniqueValueKey, valuesHeld } from '../entries/repository.js';
import { entrySnapshotFromJson } from '../entries/snapshot.js';
import { fieldValue, missingRequired } from '../entries/validation.js';
import { missingRequiredInBlocks } from '../pages/blocks.js';
import { pageSnapshotFromJson } from '../pages/snapshot.js';
import { treePaths } from '../pages/tree.js';
import { isDue } from '../publishing/states.js';
import type { ReleaseItemRecord } from './model.js';
import { itemHeads, type ItemHead } from './repository.js';

/** The rows of a release's items, by kind then id, as itemHeads read them. */
export interface ReleaseRows {
  entry: Map<string, ItemHead>;
  page: Map<string, ItemHead>;
}

/** Every relation id in `data` of a type's relation fields, with the field's name. */
function relationIds(fields: ContentType['fields'], data: Record<string, unknown>): { field: string; id: string }[] {
  const out: { field: string; id: string }[] = [];
  for (const f of fields) {
    if (f.field_type !== 'relation' && f.field_type !== 'relation_list') continue;
    const v = fieldValue(data, f.name);
    for (const id of Array.isArray(v) ? v : [v]) if (typeof id === 'string') out.push({ field: f.name, id });
  }
  return out;
}

/**
 * The unique values of the release's `publish` entry items that other entries already hold, as
 * `<type id>\0<field>\0<uniqueValueKey>` keys: `working`, held by the working copy of an entry
 * the release does not publish (which the unique indexes guard); `published`, held by the
 * published copy of an entry the release leaves alone. A statement per unique field and copy (per
 * 500 values), not per item: a release holds up to 1,000 items.
 */
async function takenUniqueValues(
  db: Db,
  items: readonly ReleaseItemRecord[],
  rows: ReleaseRows,
  typeById: ReadonlyMap<string, ContentType>,
  published: ReadonlySet<string>,
  unpublished: ReadonlySet<string>,
): Promise<{ working: Set<string>; published: Set<string> }> {
  const groups = new Map<string, { ct: ContentType; field: ContentType['fields'][number]; values: unknown[] }>();
  for (const item of items) {
    if (item.kind !== 'entry' || item.action !== 'publish') continue;
    const ct = typeById.get(rows.entry.get(item.item_id)?.content_type_id ?? '');
    if (!ct) continue;
    const data = entrySnapshotFromJson(item.snapshot).data;
    for (const f of ct.fields) {
      const value = f.is_unique ? fieldValue(data, f.name) : undefined;
      if (value === undefined || value === null) continue;
      const group = groups.get(`${ct.id}\u0000${f.name}`) ?? { ct, field: f, values: [] };
      group.values.push(value);
      groups.set(`${ct.id}\u0000${f.name}`, group);
    }
  }
  const taken = { working: new Set<string>(), published: new Set<string>() };
  for (const [prefix, { ct, field, values }] of groups) {
    for (const held of await valuesHeld(db, ct.id, field, values)) if (!published.has(held.id)) taken.working.add(`${prefix}\u0000${held.key}`);
    for (const held of await valuesHeld(db, ct.id, field, values, 'published_data'))
      if (!published.has(held.id) && !unpublished.has(held.id)) taken.published.add(`${prefix}\u0000${held.key}`);
  }
  return taken;
}

/** Problems that keep `items` (rows in `rows`) from being published at `now`; empty when none. */
export async function releaseProblems(
  db: Db,
  workspaceId: string,
  items: readonly ReleaseItemRecord[],
  rows: ReleaseRows,
  now: string,
): Promise<ErrorDetail[]> {
  const problems: ErrorDetail[] = [];
  const types = await listAllContentTypes(db, workspaceId);
  const typeById = new Map(types.map((t) => [t.id, t]));
  const label = (kind: 'entry' | 'page', row: ItemHead) =>
    kind === 'entry' ? `entry '${row.slug}' (${typeById.get(row.content_type_id ?? '')?.slug ?? '?'})` : `page '${row.slug}'`;
  const push = (kind: 'entry' | 'page', row: ItemHead, path: string, message: string) =>
    problems.push({ path: `${kind}.${row.id}${path ? `.${path}` : ''}`, message: `${label(kind, row)}: ${message}` });

  const published = new Set(items.filter((i) => i.action === 'publish' && i.kind === 'entry').map((i) => i.item_id));
  const unpublished = new Set(items.filter((i) => i.action === 'unpublish' && i.kind === 'entry').map((i) => i.item_id));
  const relations: { kind: 'entry' | 'page'; row: ItemHead; path: string; id: string }[] = [];
  const uniqueSeen = new Map<string, string>();
  const taken = await takenUniqueValues(db, items, rows, typeById, published, unpublished);

  for (const item of items) {
    const row = rows[item.kind].get(item.item_id);
    if (!row) continue;
    if (item.action === 'unpublish') {
      const live = row.status === 'published' || row.status === 'scheduled' || isDue(row, now);
      if (!live) push(item.kind, row, '', `cannot be unpublished from status '${row.status}'`);
      continue;
    }
    if (item.kind === 'entry') {
      const ct = typeById.get(row.content_type_id ?? '');
      if (!ct) continue;
      const snapshot = entrySnapshotFromJson(item.snapshot);
      for (const p of missingRequired(ct.fields, snapshot.data, 'data')) push('entry', row, p.path, p.message);
      for (const f of ct.fields) {
        if (!f.is_unique) continue;
        const value = fieldValue(snapshot.data, f.name);
        if (value === undefined || value === null) continue;
        const key = `${ct.id}\u0000${f.name}\u0000${uniqueValueKey(f.field_type, value)}`;
        const other = uniqueSeen.get(key);
        if (other !== undefined) {
          push('entry', row, `data.${f.name}`, `value of '${f.name}' is also the value of entry '${other}' in this release`);
          continue;
        }
        uniqueSeen.set(key, row.slug);
        if (taken.working.has(key)) push('entry', row, `data.${f.name}`, `value of '${f.name}' is already used by another entry of '${ct.slug}'`);
        else if (taken.published.has(key)) push('entry', row, `data.${f.name}`, `value of '${f.name}' is already used by a published entry of '${ct.slug}'`);
      }
      for (const r of relationIds(ct.fields, snapshot.data)) relations.push({ kind: 'entry', row, path: `data.${r.field}`, id: r.id });
      for (const t of snapshot.translations)
        for (const r of relationIds(ct.fields, t.data)) relations.push({ kind: 'entry', row, path: `translations.${t.locale}.data.${r.field}`, id: r.id });
    } else {
      const snapshot = pageSnapshotFromJson(item.snapshot);
      const paths = treePaths(snapshot.blocks);
      for (const p of missingRequiredInBlocks(snapshot.blocks, typeById, paths)) push('page', row, p.path, p.message);
      for (const b of snapshot.blocks) {
        const ct = typeById.get(b.block_type_id);
        if (!ct) continue;
        for (const r of relationIds(ct.fields, b.data))
          relations.push({ kind: 'page', row, path: `${paths.get(b.id) ?? `blocks.${b.id}`}.data.${r.field}`, id: r.id });
      }
    }
  }

  const targets = [...new Set(relations.map((r) => r.id).filter((id) => !published.has(id)))];
  const targetRows = targets.length ? await itemHeads(db, 'entry', workspaceId, targets) : new Map<string, ItemHead>();
  for (const r of relations) {
    if (published.has(r.id)) continue;
    const target = targetRows.get(r.id);
    const visible = target !== undefined && (target.status === 'published' || isDue(target, now)) && !unpublished.has(r.id);
    if (visible) continue;
    const why =
      target === undefined ? 'does not exist' : unpublished.has(r.id) ? 'is unpublished by this release' : `is not published (status '${target.status}')`;
    push(r.kind, r.row, r.path, `related entry '${target?.slug ?? r.id}' ${why}: it would not be visible after the release`);
  }
  return problems;
}
