/**
 * Refusals that name fields (a publish, a save, later a release's validation), as a list people can
 * act on: each failing field of an entry, of a page's SEO or of a block, named by where it is
 * ("Block 1.2: Card “First card” › Title (de)"), and the DOM lookup that expands nothing itself
 * but finds the field once the editor has shown it, scrolls it into view and focuses it
 * (docs/studio.md "Errors").
 */
import type { Field } from '../api/types';

export interface ErrorTarget {
  /** unique within one list */
  key: string;
  /** where the field is, in words: "Title (de)", "Block 1.2: Card “First card” › Title" */
  label: string;
  message: string;
  /** the locale the editor must show for the field to be on screen */
  locale: string;
  /** a form field's name (`data-field`), `seo.<key>` for a page's SEO field, or null: the block itself */
  field: string | null;
  /** the block holding the field (page editor), else null */
  blockId: string | null;
}

/** "title@de" → ["title", "de"] (errorKey's inverse). */
export function splitErrorKey(key: string): [field: string, locale: string] {
  const at = key.lastIndexOf('@');
  return [key.slice(0, at), key.slice(at + 1)];
}

/**
 * The targets of a form's field errors (keys "field@locale"), in the form's field order, the
 * default locale's first. `prefix` names the block ("Block 1.2: Card › ") for a block's fields.
 */
export function fieldTargets(
  byField: Map<string, string>,
  fields: Pick<Field, 'name' | 'label' | 'sort_order'>[],
  defaultLocale: string,
  scope: { prefix?: string; blockId?: string | null } = {},
): ErrorTarget[] {
  const order = new Map([...fields].sort((a, b) => a.sort_order - b.sort_order).map((f, i) => [f.name, i]));
  return [...byField.entries()]
    .map(([key, message]) => {
      const [name, locale] = splitErrorKey(key);
      const field = fields.find((f) => f.name === name);
      const label = `${scope.prefix ?? ''}${field?.label ?? name}${locale === defaultLocale ? '' : ` (${locale})`}`;
      return { key: `${scope.blockId ?? ''}|${key}`, label, message, locale, field: name, blockId: scope.blockId ?? null };
    })
    .sort(
      (a, b) =>
        (order.get(a.field) ?? 1e9) - (order.get(b.field) ?? 1e9) ||
        Number(b.locale === defaultLocale) - Number(a.locale === defaultLocale) ||
        a.locale.localeCompare(b.locale),
    );
}

const FOCUSABLE =
  'input:not([type=hidden]):not([disabled]), textarea:not([disabled]), [contenteditable="true"], button:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The element to focus for `target` under `root`, or null while it is not rendered (a collapsed
 * block, another locale, a widget still loading): the field's first control; for a block without a
 * field, the block row's first control.
 */
export function findTarget(root: ParentNode, target: ErrorTarget): HTMLElement | null {
  const scope = target.blockId ? root.querySelector<HTMLElement>(`li[data-block="${CSS.escape(target.blockId)}"]`) : root;
  if (!scope) return null;
  if (target.field === null) return scope.querySelector<HTMLElement>(FOCUSABLE);
  if (target.field.startsWith('seo.')) return scope.querySelector<HTMLElement>(`[data-seo-field="${CSS.escape(target.field.slice(4))}"]`);
  const holder = scope.querySelector<HTMLElement>(`[data-field="${CSS.escape(target.field)}"]`);
  return holder?.querySelector<HTMLElement>(FOCUSABLE) ?? null;
}

/**
 * Focuses `target` once the editor shows it: polls each animation frame (2 s at most, the time a
 * lazily loaded widget takes), then scrolls it to the middle of the screen and focuses it.
 * Answers a cancel function.
 */
export function revealTarget(target: ErrorTarget, root: ParentNode = document, timeoutMs = 2000): () => void {
  const deadline = Date.now() + timeoutMs;
  let frame = 0;
  const step = () => {
    const el = findTarget(root, target);
    if (el) {
      el.scrollIntoView?.({ block: 'center' });
      el.focus({ preventScroll: true });
    } else if (Date.now() < deadline) frame = requestAnimationFrame(step);
  };
  frame = requestAnimationFrame(step);
  return () => cancelAnimationFrame(frame);
}
