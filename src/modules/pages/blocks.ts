/**
 * The content rules of the blocks of a page write (docs/pages.md "The model"; docs/api.md "Localization" rule 1;
 * docs/api.md "Wire format" (D2), "States and scheduling" (D22), "Fields" (D30); docs/pages.md "The
 * model" (D25)):
 *
 * - `type` names a block type of the workspace by slug: unknown → 400, a content type that is not
 *   a block type (is_block false) → 400.
 * - `data` is validated against the block type's fields exactly like entry data (validateData:
 *   types, unknown keys, validation rules; `required` only when the page is or will go live:
 *   D22), in either D2 form.
 * - `translations` in either D2 form; workspace locales other than the default, localizable
 *   fields only; a translation left with no value is not stored. Absent on a kept block: its
 *   current translations stay.
 * - Relation and media ids of every block (data and translations) are checked together: one
 *   query per kind for the whole tree (checkReferences).
 * - `id`: a block of this page keeps its id (and row); a block of another page answers 400; an
 *   unused uuid becomes the new block's id (so clients and the importer can name blocks); no id
 *   gets a new one.
 */
import type { Db } from '../../db/types.js';
import { validationError, type ErrorDetail } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import type { ContentType } from '../content-types/model.js';
import { validateLocalizedValues } from '../entries/content.js';
import { checkReferences, missingRequired, type DataReference } from '../entries/validation.js';
import type { Workspace } from '../workspaces/repository.js';
import type { BlockData } from './model.js';
import { flattenTree, type BlockInput } from './tree.js';

/** A block ready to be written, in pre-order (parents before children). */
export interface PreparedBlock {
  id: string;
  parent_id: string | null;
  position: number;
  block_type_id: string;
  data: BlockData;
  /** undefined: keep the stored translations (kept blocks) or none (new blocks). */
  translations: { locale: string; data: BlockData }[] | undefined;
}

export interface PrepareBlocksOptions {
  /** Enforce `required` fields (D22: the page is published or scheduled). */
  requireRequired: boolean;
  /** Ids of the blocks the page has now (empty for a new page). */
  currentIds: ReadonlySet<string>;
}

/**
 * Checks a parsed block tree against the workspace's block types and returns the blocks to write.
 * Throws one 400 VALIDATION_FAILED listing every problem.
 */
export async function prepareBlocks(
  db: Db,
  ws: Workspace,
  types: readonly ContentType[],
  roots: readonly BlockInput[],
  opts: PrepareBlocksOptions,
): Promise<PreparedBlock[]> {
  const bySlug = new Map(types.map((t) => [t.slug, t]));
  const flat = flattenTree(roots);
  const errors: ErrorDetail[] = [];
  const references: DataReference[] = [];

  // Ids by flat index, so that children can name their parent. A named id that is not one of
  // the page's blocks creates a block under that id: ids are unique within a page only
  // (migration 007), so nothing here depends on what other pages or workspaces hold.
  const ids = flat.map(({ node }) => node.id ?? newId());
  const out: PreparedBlock[] = [];
  for (const [index, { node, parent, position }] of flat.entries()) {
    const ct = bySlug.get(node.type);
    if (!ct) {
      errors.push({ path: `${node.path}.type`, message: `'${node.type}' is not a block type of this workspace` });
      continue;
    }
    if (!ct.is_block) {
      errors.push({ path: `${node.path}.type`, message: `content type '${node.type}' is not a block type (is_block is false)` });
      continue;
    }
    const values = validateLocalizedValues(
      ws,
      ct.fields,
      node,
      node.path,
      { requireRequired: opts.requireRequired, patterns: db.memo.fieldPatterns },
      errors,
      references,
    );
    out.push({
      id: ids[index],
      parent_id: parent === null ? null : ids[parent],
      position,
      block_type_id: ct.id,
      data: values.data,
      translations: values.translations,
    });
  }
  if (errors.length) throw validationError(errors.slice(0, 200));
  const refErrors = await checkReferences(db, ws.id, references);
  if (refErrors.length) throw validationError(refErrors.slice(0, 200));
  return out;
}

/**
 * D22 for stored blocks: the `required` fields each block lacks, as errors at the block's
 * request-style path (`blocks.0.children.1.data.title`).
 */
export function missingRequiredInBlocks(
  blocks: readonly { id: string; block_type_id: string; data: BlockData }[],
  typesById: ReadonlyMap<string, ContentType>,
  paths: ReadonlyMap<string, string>,
): ErrorDetail[] {
  const errors: ErrorDetail[] = [];
  for (const b of blocks) {
    const ct = typesById.get(b.block_type_id);
    if (ct) errors.push(...missingRequired(ct.fields, b.data, `${paths.get(b.id) ?? `blocks.${b.id}`}.data`));
  }
  return errors;
}
