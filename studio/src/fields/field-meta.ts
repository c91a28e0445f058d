/** Readers of a field definition's JSON-encoded `options` and `validation` (D30). */
import { ASSET_KINDS, isAssetKind, type AssetKind } from '../../../src/modules/media/kinds.js';
import type { Field } from '../api/types';

/** `options`: the choices of a select, or the target type slugs of a relation ([] when none). */
export function fieldOptions(field: Pick<Field, 'options'>): string[] {
  if (!field.options) return [];
  try {
    const parsed: unknown = JSON.parse(field.options);
    return Array.isArray(parsed) ? parsed.filter((o): o is string => typeof o === 'string') : [];
  } catch {
    return [];
  }
}

export interface FieldRules {
  min?: number;
  max?: number;
  min_length?: number;
  max_length?: number;
  pattern?: string;
  /** media / media_list: the kinds of asset accepted (absent: any) */
  media_kinds?: AssetKind[];
}

export function fieldRules(field: Pick<Field, 'validation'>): FieldRules {
  if (!field.validation) return {};
  try {
    const parsed: unknown = JSON.parse(field.validation);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as FieldRules) : {};
  } catch {
    return {};
  }
}

/** A one-line hint of the rules, e.g. "120 characters at most", shown under the label. */
export function rulesHint(field: Pick<Field, 'validation' | 'field_type'>): string | null {
  const r = fieldRules(field);
  const unit = ['multi_select', 'tags', 'media_list', 'relation_list'].includes(field.field_type) ? 'items' : 'characters';
  const parts: string[] = [];
  if (r.min_length !== undefined) parts.push(`at least ${r.min_length} ${unit}`);
  if (r.max_length !== undefined) parts.push(`at most ${r.max_length} ${unit}`);
  if (r.min !== undefined) parts.push(`minimum ${r.min}`);
  if (r.max !== undefined) parts.push(`maximum ${r.max}`);
  if (r.pattern) parts.push(`pattern ${r.pattern}`);
  const kinds = mediaKindsOf(field);
  if (kinds) parts.push(`${kindsText(kinds)} only`);
  return parts.length ? parts.join(', ') : null;
}

/** How the Studio names each media kind (GET /media `type`, a field's `media_kinds`). */
export const KIND_LABELS: Record<AssetKind, string> = { image: 'Images', video: 'Videos', pdf: 'PDFs', other: 'Other files' };

/** The `media_kinds` rule of a media field, in the server's kind order; null when it accepts any kind. */
export function mediaKindsOf(field: Pick<Field, 'validation'>): AssetKind[] | null {
  const listed = fieldRules(field).media_kinds;
  if (!Array.isArray(listed)) return null;
  const kinds = ASSET_KINDS.filter((k) => listed.some((x) => isAssetKind(x) && x === k));
  return kinds.length ? kinds : null;
}

const KIND_WORDS: Record<AssetKind, string> = { image: 'images', video: 'videos', pdf: 'PDFs', other: 'other files' };

/** "images or videos": the accepted kinds in words. */
export function kindsText(kinds: readonly AssetKind[]): string {
  const words = kinds.map((k) => KIND_WORDS[k]);
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}
