/**
 * The kinds of media asset, judged by MIME type: what GET /media filters by (`type`) and what a
 * media field's `media_kinds` rule accepts (docs/api.md "Fields", docs/media.md "Kinds").
 *
 * | kind | MIME types |
 * |---|---|
 * | `image` | `image/*` (SVG too) |
 * | `video` | `video/*` |
 * | `pdf` | `application/pdf` |
 * | `other` | anything else: only assets imported by URL (e.g. Contentful audio, documents, archives), as uploads accept images, videos and PDFs alone |
 *
 * No imports: the Studio bundles this file as is.
 */

export const ASSET_KINDS = ['image', 'video', 'pdf', 'other'] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];

/** The kind of an asset of MIME type `mime` (prefixes compared as stored, like the SQL filter). */
export function assetKindOf(mime: string): AssetKind {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime === 'application/pdf') return 'pdf';
  return 'other';
}

export function isAssetKind(value: unknown): value is AssetKind {
  return typeof value === 'string' && (ASSET_KINDS as readonly string[]).includes(value);
}

const NOUNS: Record<AssetKind, string> = { image: 'an image', video: 'a video', pdf: 'a PDF', other: 'a file that is not an image, video or PDF' };

/** "an image", "an image or a video", "an image, a video or a PDF": what a rule asks for, in words. */
export function kindsPhrase(kinds: readonly AssetKind[]): string {
  const nouns = kinds.map((k) => NOUNS[k]);
  return nouns.length <= 1 ? (nouns[0] ?? '') : `${nouns.slice(0, -1).join(', ')} or ${nouns[nouns.length - 1]}`;
}

/** "a PDF": the kind of one asset, in words. */
export function kindNoun(kind: AssetKind): string {
  return NOUNS[kind];
}
