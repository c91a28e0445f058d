/**
 * Slug rules shared by workspaces, content types, entries, pages and the importer (docs/api.md
 * "Fields" (D31)): lowercase ASCII letters and digits in hyphen-separated runs. Kept here, outside
 * any
 * module, so that modules needing slugs do not import each other for them.
 */

/** D31: lowercase letters and digits, single hyphens between runs, no leading or trailing hyphen. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** D31: longest entry or page slug (docs/api.md "Entries": at most 200 characters). */
export const MAX_SLUG_LENGTH = 200;

/**
 * A slug made from free text, e.g. "Blog Post" → "blog-post", "blogPost" → "blog-post":
 * accents dropped, camelCase split, other characters turned into hyphens, at most 120
 * characters. Returns '' when nothing usable is left, so callers pick their own fallback.
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120)
    .replace(/-+$/g, '');
}

const NONE: ReadonlySet<string> = new Set();

/**
 * What is wrong with `slug` as an entry or page slug (D31: a non-empty string matching
 * SLUG_PATTERN, at most MAX_SLUG_LENGTH characters, not one of `reserved`), as the message of a
 * validation error; null when it is fine. Does not throw: callers choose the error path.
 */
export function slugProblem(slug: unknown, reserved: ReadonlySet<string> = NONE): string | null {
  if (typeof slug !== 'string' || !slug || slug.length > MAX_SLUG_LENGTH || !SLUG_PATTERN.test(slug)) {
    return `must be lowercase letters, digits and single hyphens, at most ${MAX_SLUG_LENGTH} characters`;
  }
  if (reserved.has(slug)) return `'${slug}' is reserved`;
  return null;
}

/**
 * The first free slug from `base`: `base` itself, else `base-2`, `base-3` … (D26 duplicates use
 * base `<slug>-copy`; derived entry slugs their display value). `base` is first trimmed to leave
 * room for a suffix within MAX_SLUG_LENGTH (`fallback` when nothing is left); `taken(prefix)`
 * returns the slugs in the scope equal to `prefix` or starting with `prefix-`; reserved slugs
 * are never returned.
 */
export async function firstFreeSlug(
  base: string,
  fallback: string,
  reserved: ReadonlySet<string>,
  taken: (prefix: string) => Promise<ReadonlySet<string>>,
): Promise<string> {
  const trimmed = base.slice(0, MAX_SLUG_LENGTH - 8).replace(/-+$/, '') || fallback;
  const used = await taken(trimmed);
  if (!used.has(trimmed) && !reserved.has(trimmed)) return trimmed;
  for (let n = 2; ; n++) {
    const candidate = `${trimmed}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}
