/**
 * Writes a schema plan (schema-mapping.ts) through the content type operations: a missing
 * content type is created with all its fields; an existing one (same slug) gains missing fields,
 * and its name, description, display field and field labels follow the export. Nothing is
 * written for what already matches (a field whose validation differs is reported in `warnings`:
 * the API cannot change rules of an existing field), so a second import changes nothing (issue 2 item 10).
 *
 * What the API cannot change on an existing field (type, localizable, required, unique, options:
 * docs/api.md "Fields") answers one 400 VALIDATION_FAILED listing every conflict, before any write;
 * so does a type the import would take past the field cap (content-types/model.ts).
 */
import type { Context } from '../../../context.js';
import { validationError, type ErrorDetail } from '../../../errors.js';
import type { Actor } from '../../auth/permissions.js';
import { createField, updateField } from '../../content-types/fields.js';
import { stableStringify } from '../../../lib/json.js';
import { fieldCapProblem, fieldOptions, fieldValidation, type ContentType, type Field } from '../../content-types/model.js';
import { createContentType, updateContentType } from '../../content-types/operations.js';
import { findContentTypeBySlug } from '../../content-types/repository.js';
import type { PlannedContentType, PlannedField } from './schema-mapping.js';

export interface SchemaCounts {
  created: number;
  updated: number;
  unchanged: number;
  fields_created: number;
}

function sameOptions(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Differences the API cannot apply to an existing field. */
function fieldConflicts(ct: PlannedContentType, planned: PlannedField, existing: Field, path: string): ErrorDetail[] {
  const p = planned.input;
  const out: ErrorDetail[] = [];
  const differs = (what: string, want: unknown, have: unknown) =>
    out.push({
      path: `${path}.${what}`,
      message: `the export wants ${JSON.stringify(want)}, '${ct.slug}.${existing.name}' has ${JSON.stringify(have)}; fields cannot change this`,
    });
  if (p.field_type !== existing.field_type) differs('field_type', p.field_type, existing.field_type);
  if (Boolean(p.localizable) !== existing.localizable) differs('localizable', Boolean(p.localizable), existing.localizable);
  if (Boolean(p.required) !== existing.required) differs('required', Boolean(p.required), existing.required);
  if (Boolean(p.is_unique) !== existing.is_unique) differs('is_unique', Boolean(p.is_unique), existing.is_unique);
  const wanted = Array.isArray(p.options) ? p.options : [];
  if (!sameOptions(wanted, fieldOptions(existing))) differs('options', wanted, fieldOptions(existing));
  return out;
}

/**
 * Checks every planned type against what exists; throws 400 listing all conflicts, and every
 * type the import would take past the field cap (fieldCapProblem), before anything is written.
 */
function assertNoConflicts(plan: readonly PlannedContentType[], existing: Map<string, ContentType>): void {
  const errors: ErrorDetail[] = [];
  for (const ct of plan) {
    const current = existing.get(ct.slug);
    const have = new Set(current?.fields.map((f) => f.name) ?? []);
    const cap = fieldCapProblem(have.size, ct.fields.filter((f) => !have.has(f.input.name)).length);
    if (cap) errors.push({ path: `contentTypes.${ct.cfId}.fields`, message: `'${ct.slug}': ${cap}` });
    if (!current) continue;
    if (current.is_block && !ct.is_block)
      errors.push({ path: `contentTypes.${ct.cfId}`, message: `'${ct.slug}' exists as a block type; entries cannot be imported into it` });
    if (!current.is_block && ct.is_block)
      errors.push({
        path: `contentTypes.${ct.cfId}`,
        message: `'${ct.slug}' exists as an entry type; the export's pages need it as a block type, and is_block cannot change`,
      });
    for (const f of ct.fields) {
      const have = current.fields.find((x) => x.name === f.input.name);
      if (have) errors.push(...fieldConflicts(ct, f, have, `contentTypes.${ct.cfId}.fields.${f.cfId}`));
    }
  }
  if (errors.length) throw validationError(errors.slice(0, 50));
}

/**
 * Creates or completes the content types of `plan` in the actor's workspace. Call it inside a
 * transaction (the operations join it). Returns counts.
 */
export async function applySchema(ctx: Context, actor: Actor, plan: readonly PlannedContentType[], warnings: string[] = []): Promise<SchemaCounts> {
  const counts: SchemaCounts = { created: 0, updated: 0, unchanged: 0, fields_created: 0 };
  const existing = new Map<string, ContentType>();
  for (const ct of plan) {
    const found = await findContentTypeBySlug(ctx.db, actor.workspaceId, ct.slug);
    if (found) existing.set(ct.slug, found);
  }
  assertNoConflicts(plan, existing);

  for (const ct of plan) {
    const current = existing.get(ct.slug);
    if (!current) {
      await createContentType(ctx, actor, {
        name: ct.name,
        slug: ct.slug,
        description: ct.description,
        display_field: ct.display_field,
        is_block: ct.is_block ?? false,
        fields: ct.fields.map((f) => f.input),
      });
      counts.created += 1;
      counts.fields_created += ct.fields.length;
      continue;
    }
    let changed = false;
    for (const f of ct.fields) {
      const have = current.fields.find((x) => x.name === f.input.name);
      if (!have) {
        await createField(ctx, actor, ct.slug, f.input);
        counts.fields_created += 1;
        changed = true;
      } else {
        if (f.input.label !== undefined && f.input.label !== have.label) {
          await updateField(ctx, actor, ct.slug, have.id, { label: f.input.label });
          changed = true;
        }
        // Rules cannot change on an existing field through the API; say so instead of failing.
        const want = stableStringify(f.input.validation ?? {});
        if (want !== stableStringify(fieldValidation(have))) {
          warnings.push(
            `content type '${ct.slug}': field '${have.name}' keeps its validation ${stableStringify(fieldValidation(have))}; the export's is ${want}`,
          );
        }
      }
    }
    // display_field may name a field created just above, so the type is updated last.
    const patch = {
      ...(ct.name !== current.name ? { name: ct.name } : {}),
      ...(ct.description !== current.description ? { description: ct.description } : {}),
      ...(ct.display_field !== current.display_field ? { display_field: ct.display_field } : {}),
    };
    if (Object.keys(patch).length) {
      await updateContentType(ctx, actor, ct.slug, patch);
      changed = true;
    }
    if (changed) counts.updated += 1;
    else counts.unchanged += 1;
  }
  return counts;
}
