/**
 * The live-preview protocol between the Studio and a front end framed beside an editor
 * (docs/studio.md "Live preview", docs/front-ends.md "Live preview"). Messages are plain objects
 * sent with `window.postMessage`:
 *
 * - front end → Studio, on every load: `{type: 'quire:preview-ready'}` (the page listens);
 * - Studio → front end, after each autosave: `{type: 'quire:update', kind, id, slug, locale,
 *   updated_at}` (`kind` is `entry` or `page`, `updated_at` the saved working copy's ISO time);
 * - front end → Studio, once the new content shows: `{type: 'quire:preview-updated', id,
 *   updated_at}`;
 * - front end → Studio, on a click on a piece of content (`@quire/client/visual-editing`,
 *   docs/visual-editing.md "Click to edit", D141): `{type: 'quire:edit', kind, id, field, locale,
 *   href, ...}`, the origin stega carried in the clicked string; the editor goes to that field
 *   (its locale shown, its block and the blocks around it expanded) or, for another item, opens
 *   that item's editor at the field.
 *
 * A front end that never says it is ready is reloaded after each autosave instead.
 */

export type PreviewKind = 'entry' | 'page';

/** What the Studio previews: an entry of a content type, or a page (`type` is then `page`). */
export interface PreviewTarget {
  kind: PreviewKind;
  id: string;
  type: string;
  slug: string;
}

export interface PreviewUpdate {
  type: 'quire:update';
  kind: PreviewKind;
  id: string;
  slug: string;
  locale: string;
  updated_at: string;
}

/** A click-to-edit request: the origin of the clicked content (D140's stega payload). */
export interface EditRequest {
  type: 'quire:edit';
  kind: 'entry' | 'page' | 'block' | 'asset';
  id: string;
  /** a field name, `seo.<key>` for a page's SEO value */
  field: string;
  locale: string;
  /** the Studio URL editing it */
  href: string;
}

export type FrontEndMessage = { type: 'quire:preview-ready' } | { type: 'quire:preview-updated'; id: string | null; updated_at: string | null } | EditRequest;

const EDIT_KINDS: ReadonlySet<string> = new Set(['entry', 'page', 'block', 'asset']);

/** The update event the Studio posts after an autosave of `target`. */
export function updateMessage(target: PreviewTarget, locale: string, updatedAt: string): PreviewUpdate {
  return { type: 'quire:update', kind: target.kind, id: target.id, slug: target.slug, locale, updated_at: updatedAt };
}

/** Reads a message from the framed front end; null for anything that is not one of ours. */
export function readFrontEndMessage(data: unknown): FrontEndMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const record = data as Record<string, unknown>;
  if (record.type === 'quire:preview-ready') return { type: 'quire:preview-ready' };
  if (record.type === 'quire:preview-updated') {
    const text = (v: unknown) => (typeof v === 'string' ? v : null);
    return { type: 'quire:preview-updated', id: text(record.id), updated_at: text(record.updated_at) };
  }
  if (record.type === 'quire:edit') {
    const { kind, id, field, locale, href } = record;
    if (typeof kind !== 'string' || !EDIT_KINDS.has(kind)) return null;
    if (typeof id !== 'string' || typeof field !== 'string' || typeof locale !== 'string' || typeof href !== 'string') return null;
    return { type: 'quire:edit', kind: kind as EditRequest['kind'], id, field, locale, href };
  }
  return null;
}

/**
 * The Studio route (below the router's `/studio` basename) of a Studio URL on `origin`:
 * `https://cms.example/studio/demo/pages/home?field=x` → `/demo/pages/home?field=x`; null for a URL
 * elsewhere (a message never takes the Studio off its own origin).
 */
export function studioRoute(href: string, origin: string): string | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (url.origin !== origin || !url.pathname.startsWith('/studio/')) return null;
  return `${url.pathname.slice('/studio'.length)}${url.search}`;
}

/** What an editor's URL asks it to go to (`?field=title&locale=de&block=<id>`, a click-to-edit link), or null. */
export function editGoalOf(search: URLSearchParams, locales: readonly string[]): { field: string; locale: string | null; blockId: string | null } | null {
  const field = search.get('field');
  if (!field) return null;
  const locale = search.get('locale');
  return { field, locale: locale !== null && locales.includes(locale) ? locale : null, blockId: search.get('block') };
}

/**
 * Fills the workspace's preview URL template (`{type}`, `{slug}`, `{id}`, `{locale}`, `{token}`,
 * each URL-encoded); null without a template.
 */
export function previewUrl(
  template: string | null | undefined,
  values: { type: string; slug: string; id: string; locale: string; token: string },
): string | null {
  if (!template) return null;
  return template.replace(/\{(type|slug|id|locale|token)\}/g, (_, key: keyof typeof values) => encodeURIComponent(values[key]));
}
