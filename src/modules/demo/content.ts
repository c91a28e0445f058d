/**
 * The demo workspace's model and content (docs/configuration.md "Configuration" (D60); issue 2 item
 * 11): a small
 * localized blog in English (default) and German, written for Quire. Two content types:
 *
 * - `author`: name, role (localizable), bio (rich text, localizable), website;
 * - `post`: title, excerpt and body (localizable; body is rich text), a cover image (media,
 *   images only), author (relation), tags (multi_select), published_on (date, sortable and
 *   filterable), reading_minutes.
 *
 * Seeded by seed.ts through the ordinary operations, so every value here passes the same
 * validation as an API write.
 */
import type { CreateContentTypeInput } from '../content-types/operations.js';
import { bold, code, doc, h2, link, p, quote, ul, type RichTextNode } from './rich-text.js';

/**
 * The demo's preview URL template: the example site's preview route (examples/site, Astro's
 * default port 4321), so the live preview shows the real site once it runs; while it does not,
 * the Studio offers its built-in preview (docs/studio.md "Live preview").
 */
export const DEMO_PREVIEW_URL_TEMPLATE = 'http://localhost:4321/api/preview?type={type}&slug={slug}&locale={locale}&token={token}';

export const DEMO_WORKSPACE = { slug: 'demo', name: 'Quire demo blog', default_locale: 'en', locales: ['en', 'de'], email: 'demo@quire.local' } as const;

export const TAGS = ['getting-started', 'modeling', 'localization', 'delivery', 'publishing', 'behind-the-scenes'] as const;
type Tag = (typeof TAGS)[number];

export const DEMO_CONTENT_TYPES: CreateContentTypeInput[] = [
  {
    name: 'Author',
    slug: 'author',
    description: 'People who write for the blog',
    display_field: 'name',
    fields: [
      { name: 'name', label: 'Name', field_type: 'text', required: true, sortable: true },
      { name: 'role', label: 'Role', field_type: 'text', localizable: true },
      { name: 'bio', label: 'Biography', field_type: 'rich_text', localizable: true },
      { name: 'website', label: 'Website', field_type: 'url' },
    ],
  },
  {
    name: 'Post',
    slug: 'post',
    description: 'Blog articles, written in English and translated into German',
    display_field: 'title',
    fields: [
      { name: 'title', label: 'Title', field_type: 'text', required: true, localizable: true, sortable: true, validation: { max_length: 120 } },
      { name: 'excerpt', label: 'Excerpt', field_type: 'textarea', localizable: true, validation: { max_length: 300 } },
      { name: 'body', label: 'Body', field_type: 'rich_text', required: true, localizable: true },
      { name: 'cover', label: 'Cover image', field_type: 'media', validation: { media_kinds: ['image'] } },
      { name: 'author', label: 'Author', field_type: 'relation', required: true, options: ['author'] },
      { name: 'tags', label: 'Tags', field_type: 'multi_select', options: [...TAGS] },
      { name: 'published_on', label: 'Published on', field_type: 'date', sortable: true, filterable: true },
      { name: 'reading_minutes', label: 'Reading time (minutes)', field_type: 'integer', validation: { min: 1, max: 60 } },
    ],
  },
];

export interface DemoAuthor {
  slug: string;
  name: string;
  website: string;
  role: { en: string; de: string };
  bio: { en: RichTextNode; de: RichTextNode };
}

export interface DemoPost {
  slug: string;
  /** The file name of its cover among the demo images (images.ts). */
  cover: string;
  author: string;
  tags: Tag[];
  published_on: string;
  reading_minutes: number;
  en: { title: string; excerpt: string; body: RichTextNode };
  de: { title: string; excerpt: string; body: RichTextNode };
}

export const DEMO_AUTHORS: DemoAuthor[] = [
  {
    slug: 'mara-lindqvist',
    name: 'Mara Lindqvist',
    website: 'https://example.com/mara',
    role: { en: 'Editor-in-chief', de: 'Chefredakteurin' },
    bio: {
      en: doc(p('Mara plans the editorial calendar and edits every post before it goes out. She believes a good content model saves more time than any tool.')),
      de: doc(
        p(
          'Mara plant den Redaktionskalender und redigiert jeden Beitrag, bevor er erscheint. Sie ist überzeugt, dass ein gutes Inhaltsmodell mehr Zeit spart als jedes Werkzeug.',
        ),
      ),
    },
  },
  {
    slug: 'tobias-brandt',
    name: 'Tobias Brandt',
    website: 'https://example.com/tobias',
    role: { en: 'Developer advocate', de: 'Developer Advocate' },
    bio: {
      en: doc(p('Tobias builds the sample front ends and answers questions about the APIs. He writes with a terminal open next to the editor.')),
      de: doc(p('Tobias baut die Beispiel-Frontends und beantwortet Fragen zu den APIs. Er schreibt mit einem offenen Terminal neben dem Editor.')),
    },
  },
  {
    slug: 'ines-okafor',
    name: 'Ines Okafor',
    website: 'https://example.com/ines',
    role: { en: 'Localization lead', de: 'Leiterin Lokalisierung' },
    bio: {
      en: doc(p('Ines coordinates the translators and makes sure every locale reads as if it had been written first.')),
      de: doc(p('Ines koordiniert die Übersetzerinnen und Übersetzer und sorgt dafür, dass sich jede Sprache liest, als wäre sie zuerst geschrieben worden.')),
    },
  },
];

export const DEMO_POSTS: DemoPost[] = [
  {
    slug: 'welcome-to-quire',
    cover: 'welcome-to-quire.jpg',
    author: 'mara-lindqvist',
    tags: ['getting-started', 'behind-the-scenes'],
    published_on: '2026-01-12',
    reading_minutes: 3,
    en: {
      title: 'Welcome to the Quire demo blog',
      excerpt: 'A tour of this workspace: two content types, three authors, five posts, two languages.',
      body: doc(
        p(
          'This workspace was created the first time Quire started on an empty database. It holds a small blog so that you can try the APIs before modeling your own content.',
        ),
        h2('What is inside'),
        ul(
          [bold('Authors'), ' with a name, a role and a short biography.'],
          [bold('Posts'), ' with a title, an excerpt, a cover image, a rich-text body, an author and tags.'],
          'English as the default locale, German as a translation.',
        ),
        p('Every post is published, so a delivery key sees all of them right away. Edit one through the management API and the change is live at once.'),
      ),
    },
    de: {
      title: 'Willkommen im Quire-Demoblog',
      excerpt: 'Ein Rundgang durch diesen Arbeitsbereich: zwei Inhaltstypen, drei Autorinnen und Autoren, fünf Beiträge, zwei Sprachen.',
      body: doc(
        p(
          'Dieser Arbeitsbereich wurde beim ersten Start von Quire auf einer leeren Datenbank angelegt. Er enthält einen kleinen Blog, damit Sie die APIs ausprobieren können, bevor Sie eigene Inhalte modellieren.',
        ),
        h2('Was enthalten ist'),
        ul(
          [bold('Autorinnen und Autoren'), ' mit Namen, Rolle und einer kurzen Biografie.'],
          [bold('Beiträge'), ' mit Titel, Anreißer, Titelbild, Rich-Text-Inhalt, Autor und Schlagwörtern.'],
          'Englisch als Standardsprache, Deutsch als Übersetzung.',
        ),
        p(
          'Alle Beiträge sind veröffentlicht, ein Auslieferungsschlüssel sieht sie also sofort. Ändern Sie einen über die Management-API, und die Änderung ist sofort live.',
        ),
      ),
    },
  },
  {
    slug: 'modeling-content-with-types-and-fields',
    cover: 'modeling-content.jpg',
    author: 'tobias-brandt',
    tags: ['modeling'],
    published_on: '2026-01-26',
    reading_minutes: 5,
    en: {
      title: 'Modeling content with types and fields',
      excerpt: 'Start from the questions your pages ask, not from the pages themselves.',
      body: doc(
        p(
          'A content type is a named set of fields. Each field has a type, from one-line ',
          code('text'),
          ' to ',
          code('rich_text'),
          ', ',
          code('relation'),
          ' and ',
          code('media'),
          '.',
        ),
        h2('Three habits that pay off'),
        ul(
          'Name fields after what they mean, not where they appear: "excerpt", not "grey box".',
          'Mark a field localizable only when its value really differs per language.',
          'Make fields sortable or filterable when a front end needs them; Quire indexes them for you.',
        ),
        quote('A model is finished when an editor can fill it in without asking anyone.'),
      ),
    },
    de: {
      title: 'Inhalte mit Typen und Feldern modellieren',
      excerpt: 'Beginnen Sie bei den Fragen, die Ihre Seiten stellen, nicht bei den Seiten selbst.',
      body: doc(
        p(
          'Ein Inhaltstyp ist eine benannte Menge von Feldern. Jedes Feld hat einen Typ, von einzeiligem ',
          code('text'),
          ' bis zu ',
          code('rich_text'),
          ', ',
          code('relation'),
          ' und ',
          code('media'),
          '.',
        ),
        h2('Drei Gewohnheiten, die sich auszahlen'),
        ul(
          'Benennen Sie Felder nach ihrer Bedeutung, nicht nach ihrem Platz: „Anreißer“, nicht „graue Box“.',
          'Markieren Sie ein Feld nur dann als lokalisierbar, wenn sich sein Wert je Sprache wirklich unterscheidet.',
          'Machen Sie Felder sortier- oder filterbar, wenn ein Frontend das braucht; Quire legt die Indizes an.',
        ),
        quote('Ein Modell ist fertig, wenn die Redaktion es ausfüllen kann, ohne jemanden zu fragen.'),
      ),
    },
  },
  {
    slug: 'one-entry-many-languages',
    cover: 'many-languages.jpg',
    author: 'ines-okafor',
    tags: ['localization'],
    published_on: '2026-02-09',
    reading_minutes: 4,
    en: {
      title: 'One entry, many languages',
      excerpt: 'How translations fall back to the default locale, one field at a time.',
      body: doc(
        p(
          'Each entry keeps its default-locale values in ',
          code('data'),
          ' and one translation per additional locale. A translation holds only the localizable fields that differ.',
        ),
        p(
          'Ask the delivery API for ',
          code('locale=de'),
          ' and every field comes back in German where a German value exists, and in English otherwise. The response says so with ',
          code('is_fallback'),
          '.',
        ),
        h2('Why per field?'),
        p(
          'Because translations arrive piece by piece. A post whose title is translated but whose body is still being reviewed should not disappear from the German site.',
        ),
      ),
    },
    de: {
      title: 'Ein Eintrag, viele Sprachen',
      excerpt: 'Wie Übersetzungen Feld für Feld auf die Standardsprache zurückfallen.',
      body: doc(
        p(
          'Jeder Eintrag hält seine Werte in der Standardsprache in ',
          code('data'),
          ' und je weiterer Sprache eine Übersetzung. Eine Übersetzung enthält nur die lokalisierbaren Felder, die sich unterscheiden.',
        ),
        p(
          'Fragen Sie die Auslieferungs-API mit ',
          code('locale=de'),
          ' an, und jedes Feld kommt auf Deutsch zurück, wo es einen deutschen Wert gibt, sonst auf Englisch. Die Antwort zeigt das mit ',
          code('is_fallback'),
          ' an.',
        ),
        h2('Warum pro Feld?'),
        p(
          'Weil Übersetzungen Stück für Stück eintreffen. Ein Beitrag, dessen Titel übersetzt ist, dessen Text aber noch geprüft wird, soll nicht von der deutschen Website verschwinden.',
        ),
      ),
    },
  },
  {
    slug: 'keys-previews-and-tokens',
    cover: 'keys-and-tokens.jpg',
    author: 'tobias-brandt',
    tags: ['delivery', 'getting-started'],
    published_on: '2026-02-23',
    reading_minutes: 4,
    en: {
      title: 'Keys, previews and tokens',
      excerpt: 'Which key to give to which part of your stack.',
      body: doc(
        p(
          'Quire knows two kinds of keys. ',
          bold('Delivery keys'),
          ' start with ',
          code('svc_live_'),
          ' and only read. ',
          bold('Management keys'),
          ' start with ',
          code('svc_mgmt_'),
          ', write, and expire.',
        ),
        ul(
          'Give the production website a delivery key of the production environment: it sees published content only.',
          'Give the staging site a delivery key of the preview environment: it also sees drafts.',
          'Send editors a preview token for a single entry; it expires after 48 hours.',
        ),
        p('Read more in the ', link('https://example.com/docs/api', 'API guide'), '.'),
      ),
    },
    de: {
      title: 'Schlüssel, Vorschauen und Tokens',
      excerpt: 'Welcher Schlüssel zu welchem Teil Ihres Systems gehört.',
      body: doc(
        p(
          'Quire kennt zwei Arten von Schlüsseln. ',
          bold('Auslieferungsschlüssel'),
          ' beginnen mit ',
          code('svc_live_'),
          ' und lesen nur. ',
          bold('Management-Schlüssel'),
          ' beginnen mit ',
          code('svc_mgmt_'),
          ', schreiben und laufen ab.',
        ),
        ul(
          'Die Produktionswebsite bekommt einen Auslieferungsschlüssel der Umgebung production: Sie sieht nur veröffentlichte Inhalte.',
          'Die Staging-Website bekommt einen Auslieferungsschlüssel der Umgebung preview: Sie sieht auch Entwürfe.',
          'Die Redaktion bekommt für einen einzelnen Eintrag ein Vorschau-Token; es läuft nach 48 Stunden ab.',
        ),
        p('Mehr dazu im ', link('https://example.com/docs/api', 'API-Leitfaden'), '.'),
      ),
    },
  },
  {
    slug: 'scheduling-a-release',
    cover: 'scheduling.jpg',
    author: 'mara-lindqvist',
    tags: ['publishing'],
    published_on: '2026-03-09',
    reading_minutes: 2,
    en: {
      title: 'Scheduling a release',
      excerpt: 'Prepare on Friday, go live on Monday at nine, sleep in.',
      body: doc(
        p(
          'Any draft can be scheduled with a ',
          code('publish_at'),
          ' time in the future. When the time comes the entry is published without anyone sending a request.',
        ),
        p('Until then a preview key shows the scheduled entry, so the team can review exactly what will appear.'),
      ),
    },
    de: {
      title: 'Eine Veröffentlichung planen',
      excerpt: 'Am Freitag vorbereiten, am Montag um neun live gehen, ausschlafen.',
      body: doc(
        p(
          'Jeder Entwurf lässt sich mit einem ',
          code('publish_at'),
          '-Zeitpunkt in der Zukunft planen. Ist es so weit, wird der Eintrag veröffentlicht, ohne dass jemand eine Anfrage schickt.',
        ),
        p('Bis dahin zeigt ein Vorschau-Schlüssel den geplanten Eintrag, damit das Team genau prüfen kann, was erscheinen wird.'),
      ),
    },
  },
];
