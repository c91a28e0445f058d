/**
 * The one place where the site talks to Quire, through the official client `@quire/client` with
 * the types `quire typegen` wrote for the demo's content model (src/quire.d.ts: `Post`, `Author`
 * and the block types). Pages and components ask for view models (posts, pages with their block
 * trees, navigation) in a locale; this module reads the delivery API and keeps answers in the
 * site's tagged cache (src/lib/cache.ts), so nothing else knows about keys or the wire format.
 *
 * Preview mode (a valid preview token in the visitor's cookie, see src/middleware.ts): reads
 * bypass the cache; the entry the token names is shown as its working copy from
 * `GET /public/preview` (resolved for the locale here: the default-locale `data` overlaid with the
 * locale's translation), and, when QUIRE_PREVIEW_KEY is set, everything else is read with that
 * preview-environment key, so drafts appear in lists and pages too. Those reads ask for stega
 * (`stega: true`): each text string carries its origin invisibly, which the click-to-edit module
 * of the Base layout turns into links to the Studio field (docs/visual-editing.md, D141). Text
 * that must stay plain (navigation labels, the document title) is cleaned where it is made. The
 * working copy a token names is read with stega too (GET /public/preview takes it for entries).
 */
import { createClient, isQuireError, type DeliveryEntry, type Page, type QuireClient, type TypedBlock } from '@quire/client';
import { stegaClean } from '@quire/client/visual-editing';
import type { Author, Post } from '../quire';
import { TaggedCache } from './cache';
import { LiveHub, notePageTags, recordAnswerTags, recordingFetch } from './live';
import { siteConfig, type SiteConfig } from './config';
import { imageField, toMedia, type Media } from './images';
import { toRichText, type RichTextNode } from './rich-text';
import { integer, isRecord, record, strings, text, type Fields } from './values';

export interface Site {
  name: string;
  defaultLocale: string;
  locales: string[];
  /** Content type slug by id (a preview's working copy names its type by id only). */
  typeSlugs: Record<string, string>;
  /** Field names of the post type (the blog list's GraphQL query asks for `cover` only when it exists). */
  postFields: string[];
}

export interface AuthorView {
  id: string;
  slug: string;
  name: string;
  role: string | null;
  bio: RichTextNode | null;
}

export interface PostView {
  id: string;
  slug: string;
  status: string;
  title: string;
  excerpt: string | null;
  body: RichTextNode | null;
  author: AuthorView | null;
  tags: string[];
  publishedOn: string | null;
  readingMinutes: number | null;
  /** The `cover` image field (the demo's post type has one: images only), or null. */
  cover: Media | null;
  /** No translation in the requested locale at all: everything shows in the default locale. */
  isFallback: boolean;
  /** The working copy of a preview, not the published version. */
  isPreview: boolean;
}

/** A block of a page, typed by its `type` (the generated block types), children nested. */
export type BlockView = TypedBlock;

/** One block type's variant of BlockView, e.g. `BlockOf<'hero'>`. */
export type BlockOf<K extends BlockView['type']> = Extract<BlockView, { type: K }>;

export interface PageView {
  id: string;
  slug: string;
  title: string;
  description: string | null;
  blocks: BlockView[];
  isFallback: boolean;
}

export interface NavItem {
  slug: string;
  title: string;
}

/** A valid preview token and the working copy it names (src/middleware.ts). */
export interface PreviewSession {
  token: string;
  /** What the token names: an entry, or a page (the Studio's live preview of pages). */
  kind: 'entry' | 'page';
  /** The entry's or page's id and slug. */
  itemId: string;
  itemSlug: string;
  typeSlug: string;
  /** Default-locale data of the working copy. */
  data: Fields;
  /** Locale → that locale's translated fields. */
  translations: Record<string, Fields>;
  status: string;
}

interface Runtime {
  config: SiteConfig;
  cache: TaggedCache;
  /** Reads with the production delivery key. */
  live: QuireClient;
  /** The subscription to Quire's live events that drops cached answers and tells open pages. */
  hub: LiveHub;
  /** Reads in preview mode: the preview key when configured, else the production key. */
  preview: QuireClient;
  /** Preview reads ask for stega: only with a preview key (a production key gets 400 for it). */
  previewStega: boolean;
}

// Made on first use, not at import: `astro build` loads this module without the run-time environment.
let state: Runtime | null = null;

function runtime(): Runtime {
  if (!state) {
    const config = siteConfig();
    // The recording fetch notes each answer's Cache-Tag, which live events name (src/lib/live.ts).
    const live = createClient({ url: config.quireUrl, apiKey: config.deliveryKey, fetch: recordingFetch });
    const cache = new TaggedCache(config.cacheSeconds * 1000);
    state = {
      config,
      cache,
      live,
      hub: new LiveHub(live, cache, config.liveUpdates),
      preview: config.previewKey ? createClient({ url: config.quireUrl, apiKey: config.previewKey }) : live,
      previewStega: config.previewKey !== null,
    };
  }
  return state;
}

/** The origin of the Studio allowed to refresh a framed preview (QUIRE_STUDIO_ORIGIN). */
export function studioOrigin(): string {
  return runtime().config.studioOrigin;
}

/** The live-event hub, for the site's own stream to open pages (src/pages/api/live.ts). */
export function liveHub(): LiveHub {
  return runtime().hub;
}

/** The site's cache, for the revalidation endpoint. */
export function siteCache(): TaggedCache {
  return runtime().cache;
}

/** The client for a read: the preview one in preview mode, else the production one. */
function clientFor(preview: PreviewSession | null): QuireClient {
  return preview ? runtime().preview : runtime().live;
}

/** Whether a read carries stega: in preview mode with a preview key, never for published pages. */
function stega(preview: PreviewSession | null): boolean {
  return preview !== null && runtime().previewStega;
}

const isSite = (v: unknown): v is Site => isRecord(v) && typeof v.defaultLocale === 'string' && Array.isArray(v.postFields);
const isPosts = (v: unknown): v is PostView[] => Array.isArray(v);
const isPost = (v: unknown): v is PostView => isRecord(v) && typeof v.title === 'string' && typeof v.isPreview === 'boolean';
const isPage = (v: unknown): v is PageView => isRecord(v) && Array.isArray(v.blocks);
const isNav = (v: unknown): v is NavItem[] => Array.isArray(v);
const isAuthors = (v: unknown): v is AuthorView[] => Array.isArray(v);

/**
 * Tags of everything a delivered value shows: every resolved relation (`{id, slug, type}`) as
 * `entry:<id>` and every media object (`{id, url, mime_type}`) as `media:<id>`, at any depth.
 */
function relatedTags(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const v of value) relatedTags(v, into);
  else if (isRecord(value)) {
    if (typeof value.id === 'string') {
      if (typeof value.slug === 'string' && typeof value.type === 'string') into.add(`entry:${value.id}`);
      if (typeof value.url === 'string' && typeof value.mime_type === 'string') into.add(`media:${value.id}`);
    }
    for (const v of Object.values(value)) relatedTags(v, into);
  }
  return into;
}

/**
 * Runs `load` through the cache, except in preview mode (working copies are never cached). A
 * cached value carries the site's tags and the `Cache-Tag` values of the answers `load` read, and
 * the page being rendered notes them all (src/lib/live.ts), so a live event naming one refreshes it.
 */
async function cached<T>(
  preview: PreviewSession | null,
  key: string,
  isValue: (v: unknown) => v is T,
  load: () => Promise<{ value: T; tags: string[] }>,
): Promise<T> {
  if (preview) return (await load()).value;
  const { cache, hub } = runtime();
  // The first production read starts the subscription, before anything is cached.
  hub.start();
  return cache.get(
    key,
    isValue,
    async () => {
      const { value, quireTags } = await recordAnswerTags(load);
      return { value: value.value, tags: [...value.tags, ...quireTags] };
    },
    notePageTags,
  );
}

/** The workspace's name, locales and content types (cached; any content-model change drops it). */
export async function getSite(): Promise<Site> {
  return cached(null, 'schema', isSite, async () => {
    const { workspace, content_types } = await runtime().live.schema();
    return {
      value: {
        name: workspace.name,
        defaultLocale: workspace.default_locale,
        locales: workspace.locales,
        typeSlugs: Object.fromEntries(content_types.map((ct) => [ct.id, ct.slug])),
        postFields: content_types.find((ct) => ct.slug === 'post')?.fields.map((f) => f.name) ?? [],
      },
      tags: ['schema'],
    };
  });
}

function authorView(id: string, slug: string, author: Author): AuthorView {
  return { id, slug, name: author.name, role: author.role ?? null, bio: toRichText(author.bio) };
}

/** The `cover` field of a post: an image, or null (none set, or not an image). */
function coverOf(data: Post): Media | null {
  return imageField({ cover: data.cover }, 'cover');
}

function postView(entry: DeliveryEntry<Post>, isFallback: boolean): PostView {
  const { data } = entry;
  return {
    id: entry.id,
    slug: entry.slug,
    status: entry.status,
    title: data.title,
    excerpt: data.excerpt ?? null,
    body: toRichText(data.body),
    author: data.author ? authorView(data.author.id, data.author.slug, data.author) : null,
    tags: data.tags ?? [],
    publishedOn: data.published_on ?? null,
    readingMinutes: data.reading_minutes ?? null,
    cover: coverOf(data),
    isFallback,
    isPreview: false,
  };
}

/** The working copy of a preview resolved for `locale`: default-locale data overlaid with the locale's translation. */
function workingCopyFields(preview: PreviewSession, locale: string): Fields {
  return { ...preview.data, ...(preview.translations[locale] ?? {}) };
}

/**
 * A post's working copy as a view. Its `data` is the stored shape (relations and media as ids,
 * no generated type applies until the type is known), so each field is checked where it is read.
 */
async function previewPost(preview: PreviewSession, locale: string): Promise<PostView> {
  const fields = workingCopyFields(preview, locale);
  const authorId = text(fields, 'author');
  const authors = authorId ? await listAuthors(locale, preview) : [];
  const coverId = text(fields, 'cover');
  const cover = coverId
    ? toMedia(
        await runtime()
          .live.media.get(coverId)
          .catch(() => null),
      )
    : null;
  return {
    id: preview.itemId,
    slug: preview.itemSlug,
    status: preview.status,
    title: text(fields, 'title') ?? preview.itemSlug,
    excerpt: text(fields, 'excerpt'),
    body: toRichText(fields.body),
    author: authors.find((a) => a.id === authorId) ?? null,
    tags: strings(fields, 'tags'),
    publishedOn: text(fields, 'published_on'),
    readingMinutes: integer(fields, 'reading_minutes'),
    cover: cover && cover.mimeType.startsWith('image/') ? cover : null,
    isFallback: false,
    isPreview: true,
  };
}

function previewedPost(preview: PreviewSession | null): preview is PreviewSession {
  return preview !== null && preview.typeSlug === 'post';
}

/** The authors in `locale` (used to resolve a working copy's author id). */
export async function listAuthors(locale: string, preview: PreviewSession | null): Promise<AuthorView[]> {
  return cached(preview, `authors:${locale}`, isAuthors, async () => {
    const { items } = await clientFor(preview).entries.list('author', { locale, limit: 100, stega: stega(preview) });
    const authors = items.map((e) => authorView(e.id, e.slug, e.data));
    return { value: authors, tags: ['type:author', ...authors.map((a) => `entry:${a.id}`)] };
  });
}

/** An asset as the blog list's GraphQL query reads it (docs/graphql.md "Assets"). */
interface AssetNode {
  id: string;
  url: string;
  mimeType: string;
  width: number | null;
  height: number | null;
  altText: string | null;
}

/** One post of the blog list's GraphQL answer: `cover` only when the post type has that field. */
interface PostNode {
  sys: { id: string; slug: string; status: string; isFallback: boolean };
  title: string | null;
  excerpt: string | null;
  tags: string[];
  published_on: string | null;
  reading_minutes: number | null;
  author: { sys: { id: string; slug: string }; name: string | null; role: string | null } | null;
  cover?: AssetNode | null;
}

interface BlogListQuery {
  postCollection: { nodes: PostNode[] };
}

/**
 * The blog list's GraphQL query (docs/graphql.md): the newest posts in a locale with their authors
 * (a relation, resolved in the same request), and the `cover` image when the post type has one
 * (a query names its fields; the demo's post type has one, a model without it still works).
 */
function blogListQuery(withCover: boolean): string {
  const cover = withCover ? 'cover { id url mimeType width height altText }' : '';
  return `query BlogList($locale: String, $first: Int) {
  postCollection(locale: $locale, first: $first, order: [published_on_DESC]) {
    nodes {
      sys { id slug status isFallback }
      title excerpt tags published_on reading_minutes
      author { sys { id slug } name role }
      ${cover}
    }
  }
}`;
}

/** A post of the GraphQL list as a view (the list shows no body). */
function postNodeView(node: PostNode): PostView {
  const cover = node.cover
    ? {
        id: node.cover.id,
        url: node.cover.url,
        mimeType: node.cover.mimeType,
        width: node.cover.width,
        height: node.cover.height,
        alt: node.cover.altText ?? '',
      }
    : null;
  return {
    id: node.sys.id,
    slug: node.sys.slug,
    status: node.sys.status,
    title: node.title ?? node.sys.slug,
    excerpt: node.excerpt,
    body: null,
    author: node.author
      ? { id: node.author.sys.id, slug: node.author.sys.slug, name: node.author.name ?? node.author.sys.slug, role: node.author.role, bio: null }
      : null,
    tags: node.tags,
    publishedOn: node.published_on,
    readingMinutes: node.reading_minutes,
    cover: cover && cover.mimeType.startsWith('image/') ? cover : null,
    isFallback: node.sys.isFallback,
    isPreview: false,
  };
}

/**
 * Published posts in `locale`, newest first (`published_on` descending), read through the GraphQL
 * endpoint with `client.graphql()`: posts and their authors in one request. In preview mode with
 * working copies (the preview key reads them; the post a token names is its working copy).
 */
export async function listPosts(locale: string, preview: PreviewSession | null, limit = 20): Promise<PostView[]> {
  const site = await getSite();
  const posts = await cached(preview, `posts:${locale}:${limit}`, isPosts, async () => {
    const { data, errors } = await clientFor(preview).graphql<BlogListQuery>(
      blogListQuery(site.postFields.includes('cover')),
      { locale, first: limit },
      { stega: stega(preview) },
    );
    if (!data) throw new Error(`GraphQL blog list failed: ${errors?.map((e) => e.message).join('; ') ?? 'no data'}`);
    const nodes = data.postCollection.nodes;
    const tags = new Set(['type:post', ...nodes.map((n) => `entry:${n.sys.id}`)]);
    for (const n of nodes) {
      if (n.author) tags.add(`entry:${n.author.sys.id}`);
      if (n.cover) tags.add(`media:${n.cover.id}`);
    }
    return { value: nodes.map(postNodeView), tags: [...tags] };
  });
  if (!previewedPost(preview)) return posts;
  const working = await previewPost(preview, locale);
  return posts.some((p) => p.id === working.id) ? posts.map((p) => (p.id === working.id ? working : p)) : [working, ...posts];
}

/** One post by slug in `locale`; throws the client's QuireError NOT_FOUND when there is none (for this key). */
export async function getPost(locale: string, slug: string, preview: PreviewSession | null): Promise<PostView> {
  if (previewedPost(preview) && preview.itemSlug === slug) return previewPost(preview, locale);
  return cached(preview, `post:${locale}:${slug}`, isPost, async () => {
    const entry = await clientFor(preview).entries.get(slug, { type: 'post', locale, stega: stega(preview) });
    return { value: postView(entry, entry.is_fallback), tags: ['type:post', `entry:${entry.id}`, ...relatedTags(entry.data)] };
  });
}

/** A navigation link: its label stays plain in a stega preview, so a click navigates rather than edits. */
function navItem(page: Page): NavItem {
  return { slug: page.slug, title: stegaClean(page.seo.title) ?? page.slug };
}

/** Pages for the navigation, in their order, with titles in `locale`. */
export async function listPages(locale: string, preview: PreviewSession | null): Promise<NavItem[]> {
  return cached(preview, `pages:${locale}`, isNav, async () => {
    const { items } = await clientFor(preview).pages.list({ locale, limit: 20, stega: stega(preview) });
    return { value: items.map(navItem), tags: ['pages', ...items.map((p) => `page:${p.id}`)] };
  });
}

/** One page with its block tree in `locale`; throws the client's QuireError NOT_FOUND when there is none. */
export async function getPage(locale: string, slug: string, preview: PreviewSession | null): Promise<PageView> {
  return cached(preview, `page:${locale}:${slug}`, isPage, async () => {
    const { page, blocks } = await clientFor(preview).pages.get(slug, { locale, stega: stega(preview) });
    return {
      value: {
        id: page.id,
        slug: page.slug,
        title: page.seo.title ?? slug,
        description: page.seo.description ?? null,
        blocks,
        isFallback: page.is_fallback === true,
      },
      tags: ['pages', `page:${page.id}`, ...relatedTags(blocks)],
    };
  });
}

/**
 * Checks a preview token with Quire (`GET /public/preview`, never cached) and returns the session
 * it opens, or null when the token is expired, tampered or names nothing this key may see.
 */
export async function openPreview(token: string): Promise<PreviewSession | null> {
  try {
    // With a preview key the working copy carries stega too, so the edited entry is click-to-edit as well.
    const { preview, previewStega } = runtime();
    const [item, schema] = await Promise.all([preview.previewItem(token, { stega: previewStega }), getSite()]);
    if (item.kind === 'page') {
      // A page's working copy is read through the preview key (getPage); the token only opens preview mode.
      const { page } = item.page;
      return { token, kind: 'page', itemId: page.id, itemSlug: page.slug, typeSlug: 'page', data: {}, translations: {}, status: page.status };
    }
    const { entry } = item;
    return {
      token,
      kind: 'entry',
      itemId: entry.id,
      itemSlug: entry.slug,
      typeSlug: schema.typeSlugs[entry.content_type_id] ?? '',
      data: entry.data,
      translations: Object.fromEntries(entry.translations.map((t) => [t.locale, t.data])),
      status: entry.status,
    };
  } catch (err) {
    if (isQuireError(err) && [400, 401, 403, 404].includes(err.status)) return null;
    throw err;
  }
}

/**
 * The cache tags a webhook event touches (payload `{type, data: {id, slug, content_type?}}`, D82):
 * an entry's own answers and the lists of its type, a page's answers and the navigation, a media
 * asset's users; `'all'` for a change of the content model; [] for anything else (e.g. a ping).
 */
export function tagsForEvent(payload: unknown): string[] | 'all' {
  const event = isRecord(payload) ? payload : {};
  const type = text(event, 'type') ?? '';
  const data = record(event, 'data') ?? {};
  const id = text(data, 'id');
  if (type.startsWith('content_type.')) return 'all';
  if (!id) return [];
  if (type.startsWith('entry.')) {
    const contentType = text(data, 'content_type');
    return [`entry:${id}`, ...(contentType ? [`type:${contentType}`] : [])];
  }
  if (type.startsWith('page.')) return [`page:${id}`, 'pages'];
  if (type.startsWith('media.')) return [`media:${id}`];
  return [];
}

/** `promise`'s value, or null when Quire answered 404 (not there, or not visible to this key). */
export async function orNotFound<T>(promise: Promise<T>): Promise<T | null> {
  try {
    return await promise;
  } catch (err) {
    if (isQuireError(err, 'NOT_FOUND')) return null;
    throw err;
  }
}

/** The URL's locale segment when it is one of the workspace's locales, else null (→ 404). */
export async function routeLocale(param: string | undefined): Promise<string | null> {
  const site = await getSite();
  return param !== undefined && site.locales.includes(param) ? param : null;
}

/** The first workspace locale named by an Accept-Language header (by language, `de-AT` → `de`), else the default locale. */
export async function preferredLocale(acceptLanguage: string | null): Promise<string> {
  const site = await getSite();
  const wanted = (acceptLanguage ?? '')
    .split(',')
    .map((part) => (part.split(';')[0] ?? '').trim().toLowerCase())
    .flatMap((tag) => [tag, tag.split('-')[0] ?? ''])
    .find((code) => site.locales.includes(code));
  return wanted ?? site.defaultLocale;
}
