/**
 * The site's own words (navigation, labels) per locale. Content comes from Quire in the locale of
 * the URL; these strings only frame it. A locale of the workspace without its own strings here
 * uses English ones, like Quire falls back to the default locale field by field.
 */

const en = {
  home: 'Home',
  blog: 'Blog',
  latest: 'Latest',
  language: 'Language',
  readMore: 'Read more',
  minutes: (n: number) => `${n} min read`,
  by: 'by',
  writtenBy: 'Written by',
  allPosts: 'All posts',
  blogIntro: 'Articles on modeling, localizing and delivering content with Quire.',
  noPosts: 'No posts yet.',
  fallbackNotice: 'This text is not translated yet; it is shown in the original language.',
  previewBanner: 'Preview mode: you see unpublished changes.',
  exitPreview: 'Exit preview',
  latestTitle: 'Latest posts',
  latestIntro: 'This list is loaded by your browser, straight from the Quire delivery API (CORS).',
  loading: 'Loading…',
  loadFailed: 'The posts could not be loaded.',
  noPublicKey: 'Set PUBLIC_QUIRE_DELIVERY_KEY to load posts in the browser.',
  notFound: 'Page not found',
  notFoundText: 'There is nothing at this address.',
  backHome: 'Back to the home page',
  featured: 'Featured post',
};

type Strings = typeof en;

const de: Strings = {
  home: 'Start',
  blog: 'Blog',
  latest: 'Neu',
  language: 'Sprache',
  readMore: 'Weiterlesen',
  minutes: (n: number) => `${n} Min. Lesezeit`,
  by: 'von',
  writtenBy: 'Geschrieben von',
  allPosts: 'Alle Beiträge',
  blogIntro: 'Beiträge über das Modellieren, Übersetzen und Ausliefern von Inhalten mit Quire.',
  noPosts: 'Noch keine Beiträge.',
  fallbackNotice: 'Dieser Text ist noch nicht übersetzt; er wird in der Originalsprache gezeigt.',
  previewBanner: 'Vorschau: Sie sehen unveröffentlichte Änderungen.',
  exitPreview: 'Vorschau beenden',
  latestTitle: 'Neueste Beiträge',
  latestIntro: 'Diese Liste lädt Ihr Browser direkt von der Quire-Delivery-API (CORS).',
  loading: 'Wird geladen…',
  loadFailed: 'Die Beiträge konnten nicht geladen werden.',
  noPublicKey: 'Setzen Sie PUBLIC_QUIRE_DELIVERY_KEY, um Beiträge im Browser zu laden.',
  notFound: 'Seite nicht gefunden',
  notFoundText: 'Unter dieser Adresse gibt es nichts.',
  backHome: 'Zurück zur Startseite',
  featured: 'Empfohlener Beitrag',
};

const STRINGS: Record<string, Strings> = { en, de };

/** The site's strings for `locale` (English when it has none of its own). */
export function strings(locale: string): Strings {
  return STRINGS[locale] ?? en;
}

/** A `YYYY-MM-DD` date as the locale writes it (12 January 2026, 12. Januar 2026); other values as they are. */
export function formatDate(value: string, locale: string): string {
  const date = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
}

/** The language's own name of a locale code (English, Deutsch). */
export function languageName(locale: string): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: 'language' }).of(locale);
    return name ? name.charAt(0).toUpperCase() + name.slice(1) : locale;
  } catch {
    return locale;
  }
}
