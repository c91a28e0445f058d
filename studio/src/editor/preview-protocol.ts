/**
 * The live-preview protocol between the Studio and a front end framed beside an editor
 * (docs/studio.md "Live preview", docs/front-ends.md "Live preview"). Messages are plain objects
 * sent with `window.postMessage`:
 *
 * - front end → Studio, on every load: `{type: 'quire:preview-ready'}` (the page listens);
 * - Studio → front end, after each autosave: `{type: 'quire:update', kind, id, slug, locale,
 *   updated_at}` (`kind` is `entry` or `page`, `updated_at` the saved working copy's ISO time);
 * - front end → Studio, once the new content shows: `{type: 'quire:preview-updated', id,
 *   updated_at}`.
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

export type FrontEndMessage = { type: 'quire:preview-ready' } | { type: 'quire:preview-updated'; id: string | null; updated_at: string | null };

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
  return null;
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
