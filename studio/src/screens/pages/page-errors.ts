/**
 * A page's refused fields as a list to act on (editor/field-errors.ts): its SEO fields first, then
 * each block's fields in tree order, every block named by its position ("Block 1.2": the second
 * block inside the first top-level one), its type and first value; and the blocks to expand so a
 * block's fields are on screen.
 */
import type { ContentType } from '../../api/types';
import { fieldTargets, type ErrorTarget } from '../../editor/field-errors';
import { mapErrors } from '../entries/model';
import { SEO_LABELS } from './SeoPanel';
import type { BlockNode, SeoKey } from './tree';

export interface PageErrorInput {
  /** SEO errors by seoErrorKey: `seo.title`, `seo_translations.de.title` */
  seoErrors: Map<string, string>;
  /** errorsByBlock's `byBlock`: paths relative to the block (`data.title`) */
  byBlock: Map<string, { path: string; message: string }[]>;
  blocks: BlockNode[];
  types: ContentType[];
  defaultLocale: string;
  /** the block's name as the tree shows it, e.g. Card “First card” */
  labelOf: (node: BlockNode) => string;
}

export function pageErrorTargets({ seoErrors, byBlock, blocks, types, defaultLocale, labelOf }: PageErrorInput): ErrorTarget[] {
  const out: ErrorTarget[] = [];
  for (const [key, message] of seoErrors) {
    const m = /^seo(?:_translations\.([^.]+))?\.(\w+)$/.exec(key);
    if (!m) continue;
    const locale = m[1] ?? defaultLocale;
    const name = m[2] as SeoKey;
    out.push({
      key: `seo|${key}`,
      label: `${SEO_LABELS[name] ?? name}${locale === defaultLocale ? '' : ` (${locale})`}`,
      message,
      locale,
      field: `seo.${name}`,
      blockId: null,
    });
  }
  const visit = (nodes: BlockNode[], prefix: string) =>
    nodes.forEach((node, i) => {
      const position = `${prefix}${i + 1}`;
      const errors = byBlock.get(node.id);
      if (errors?.length) {
        const type = types.find((t) => t.slug === node.type);
        const fields = type?.fields ?? [];
        const mapped = mapErrors(
          errors,
          defaultLocale,
          fields.map((f) => f.name),
        );
        const named = `Block ${position}: ${labelOf(node)}`;
        out.push(...fieldTargets(mapped.byField, fields, defaultLocale, { prefix: `${named} › `, blockId: node.id }));
        if (mapped.other.length)
          out.push({
            key: `${node.id}|`,
            label: named,
            message: mapped.other.map((e) => `${e.path ? `${e.path}: ` : ''}${e.message}`).join('; '),
            locale: defaultLocale,
            field: null,
            blockId: node.id,
          });
      }
      visit(node.children, `${position}.`);
    });
  visit(blocks, '');
  return out;
}

/** The ids of `id`'s ancestors and of itself, outermost first ([] when it is not in the tree). */
export function blockLineage(nodes: BlockNode[], id: string): string[] {
  for (const node of nodes) {
    if (node.id === id) return [id];
    const inner = blockLineage(node.children, id);
    if (inner.length) return [node.id, ...inner];
  }
  return [];
}
