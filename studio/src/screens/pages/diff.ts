/**
 * What a page version changes against the working copy, for the history dialog (D72): SEO values
 * per locale, then blocks added, removed, moved (another parent or place) or with changed field
 * values, per locale, using the entries' field-by-field diff for each block.
 */
import type { Field } from '../../api/types';
import { diffDrafts, sameValue } from '../entries/model';
import { type BlockNode, type PageDraft, type SeoKey } from './tree';

export interface PageDiffRow {
  /** what changed: "SEO title", "Hero “Welcome” › Headline" */
  what: string;
  locale: string | null;
  kind: 'added' | 'removed' | 'changed' | 'moved';
  before: string;
  after: string;
}

const SEO_KEYS: SeoKey[] = ['title', 'description', 'keywords', 'og_image', 'canonical'];
const show = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : Array.isArray(v) ? v.join(', ') || '—' : String(v));

interface Placed {
  node: BlockNode;
  parentId: string | null;
  index: number;
}

function placements(nodes: BlockNode[], parentId: string | null = null, out = new Map<string, Placed>()): Map<string, Placed> {
  nodes.forEach((node, index) => {
    out.set(node.id, { node, parentId, index });
    placements(node.children, node.id, out);
  });
  return out;
}

export function diffPages(
  before: PageDraft,
  after: PageDraft,
  opts: { defaultLocale: string; locales: string[]; fieldsOf: (type: string) => Field[]; labelOf: (node: BlockNode) => string },
): PageDiffRow[] {
  const rows: PageDiffRow[] = [];
  const seoRow = (locale: string, key: SeoKey, x: unknown, y: unknown) => {
    if (sameValue(x, y) || (show(x) === '—' && show(y) === '—')) return;
    rows.push({
      what: `SEO ${key.replace('_', ' ')}`,
      locale,
      kind: show(x) === '—' ? 'added' : show(y) === '—' ? 'removed' : 'changed',
      before: show(x),
      after: show(y),
    });
  };
  for (const k of SEO_KEYS) seoRow(opts.defaultLocale, k, before.seo[k], after.seo[k]);
  for (const l of opts.locales)
    if (l !== opts.defaultLocale) for (const k of SEO_KEYS) seoRow(l, k, before.seoTranslations[l]?.[k], after.seoTranslations[l]?.[k]);

  const b = placements(before.blocks);
  const a = placements(after.blocks);
  for (const [id, was] of b) {
    const now = a.get(id);
    if (!now) {
      rows.push({ what: opts.labelOf(was.node), locale: null, kind: 'removed', before: 'present', after: '—' });
      continue;
    }
    if (was.parentId !== now.parentId || was.index !== now.index) {
      const where = (p: Placed) =>
        `${p.parentId ? `inside ${opts.labelOf((b.get(p.parentId) ?? a.get(p.parentId))!.node)}` : 'top level'}, place ${p.index + 1}`;
      rows.push({ what: opts.labelOf(now.node), locale: null, kind: 'moved', before: where(was), after: where(now) });
    }
    for (const r of diffDrafts(opts.fieldsOf(now.node.type), opts.locales, opts.defaultLocale, was.node, now.node))
      rows.push({ what: `${opts.labelOf(now.node)} › ${r.label}`, locale: r.locale, kind: r.kind, before: r.before, after: r.after });
  }
  for (const [id, now] of a) if (!b.has(id)) rows.push({ what: opts.labelOf(now.node), locale: null, kind: 'added', before: '—', after: 'present' });
  return rows;
}
