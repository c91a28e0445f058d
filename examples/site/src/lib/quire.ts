/**
 * The one place where the site talks to Quire. Pages and components ask for view models (posts,
 * pages with their block trees, navigation) in a locale; this module reads the delivery API,
 * keeps answers in the site's tagged cache (src/lib/cache.ts) and turns `data` into checked
 * values (src/lib/values.ts), so nothing else knows about envelopes, keys or JSON strings.
 *
 * Preview mode (a valid preview token in the visitor's cookie, see src/middleware.ts): reads
 * bypass the cache; the entry the token names is shown as its working copy from
 * `GET /public/preview` (resolved for the locale here: the default-locale `data` overlaid with the
 * locale's translation), and, when QUIRE_PREVIEW_KEY is set, everything else is read with that
 * preview-environment key, so drafts appear in lists and pages too.
 */
import { TaggedCache } from './cache';
import { siteConfig, type SiteConfig } from './config';
import { imageField, toMedia, type Media } from './images';
import { toRichText, type RichTextNode } from './rich-text';
import { integer, isRecord, parseData, record, records, strings, text, type Fields } from './values';

/** An answer of Quire other than 2xx; `status` 404 means "not there (for this key)". */
export class QuireError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface Site {
  name: string;
  defaultLocale: string;
  locales: string[];
  /** Content type slug by id (a preview's working copy names its type by id only). */
  typeSlugs: Record<string, string>;
}

export interface AuthorView {
  id: string;
  slug: string;
  name: string;
  role: string | null;
  bio: RichTextNode | null;
  website: string | null;
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
  /** A `cover` image field, when the post type has one. */
  cover: Media | null;
  /** No translation in the requested locale at all: everything shows in the default locale. */
  isFallback: boolean;
  /** The working copy of a preview, not the published version. */
  isPreview: boolean;
}

/** A block of a page: its type slug, its resolved `data` and its children, in order. */
export interface BlockView {
  id: string;
  type: string;
  data: Fields;
  children: BlockView[];
}

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
  entryId: string;
  entrySlug: string;
  typeSlug: string;
  /** Default-locale data of the working copy. */
  data: Fields;
  /** Locale → that locale's translated fields. */
  translations: Record<string, Fields>;
  status: string;
}

// Read on first use, not at import: `astro build` loads this module without the run-time environment.
let state: { config: SiteConfig; cache: TaggedCache } | null = null;

function runtime(): { config: SiteConfig; cache: TaggedCache } {
  if (!state) {
    const config = siteConfig();
    state = { config, cache: new TaggedCache(config.cacheSeconds * 1000) };
  }
  return state;
}

/** The site's cache, for the revalidation endpoint. */
export function siteCache(): TaggedCache {
  return runtime().cache;
}

async function deliveryGet(path: string, query: Record<string, string>, key: string): Promise<{ data: unknown; meta: unknown }> {
  const url = new URL(`${runtime().config.quireUrl}/api/v1/public${path}`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const res = await fetch(url, { headers: { 'X-API-Key': key, Accept: 'application/json' } });
  const body: unknown = await res.json().catch(() => null);
  const envelope = isRecord(body) ? body : {};
  if (!res.ok) {
    const message = typeof envelope.message === 'string' ? envelope.message : `HTTP ${res.status}`;
    throw new QuireError(res.status, typeof envelope.code === 'string' ? envelope.code : 'HTTP_ERROR', message);
  }
  return { data: envelope.data, meta: envelope.meta };
}

const isSite = (v: unknown): v is Site => isRecord(v) && typeof v.defaultLocale === 'string';
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

/** The workspace's name, locales and content types (cached; any content-model change drops it). */
export async function getSite(): Promise<Site> {
  return siteCache().get('schema', isSite, async () => {
    const { data } = await deliveryGet('/schema', {}, runtime().config.deliveryKey);
    const schema = isRecord(data) ? data : {};
    const workspace = record(schema, 'workspace') ?? {};
    const typeSlugs: Record<string, string> = {};
    for (const ct of records(schema.content_types)) {
      const id = text(ct, 'id');
      const slug = text(ct, 'slug');
      if (id && slug) typeSlugs[id] = slug;
    }
    const locales = strings(workspace, 'locales');
    const defaultLocale = text(workspace, 'default_locale') ?? locales[0] ?? 'en';
    return {
      value: { name: text(workspace, 'name') ?? 'Quire', defaultLocale, locales: locales.length ? locales : [defaultLocale], typeSlugs },
      tags: ['schema'],
    };
  });
}

function toAuthor(value: unknown): AuthorView | null {
  if (!isRecord(value) || typeof value.id !== 'string') return null;
  // A relation resolves to `{id, slug, type, ...fields}`; a listed entry keeps fields in `data`.
  const fields = 'data' in value ? parseData(value.data) : value;
  return {
    id: value.id,
    slug: typeof value.slug === 'string' ? value.slug : '',
    name: text(fields, 'name') ?? '',
    role: text(fields, 'role'),
    bio: toRichText(fields.bio),
    website: text(fields, 'website'),
  };
}

function toPost(entry: Fields, fields: Fields, author: AuthorView | null, cover: Media | null, isPreview: boolean): PostView {
  return {
    id: text(entry, 'id') ?? '',
    slug: text(entry, 'slug') ?? '',
    status: text(entry, 'status') ?? 'published',
    title: text(fields, 'title') ?? text(entry, 'slug') ?? '',
    excerpt: text(fields, 'excerpt'),
    body: toRichText(fields.body),
    author,
    tags: strings(fields, 'tags'),
    publishedOn: text(fields, 'published_on'),
    readingMinutes: integer(fields, 'reading_minutes'),
    cover,
    isFallback: entry.is_fallback === true,
    isPreview,
  };
}

function deliveredPost(entry: Fields): PostView {
  const fields = parseData(entry.data);
  return toPost(entry, fields, toAuthor(fields.author), imageField(fields, 'cover'), false);
}

/** The key for a read: the preview key in preview mode when configured, else the delivery key. */
function keyFor(preview: PreviewSession | null): string {
  const { previewKey, deliveryKey } = runtime().config;
  return preview && previewKey ? previewKey : deliveryKey;
}

/** Runs `load` through the cache, except in preview mode (working copies are never cached). */
async function cached<T>(
  preview: PreviewSession | null,
  key: string,
  isValue: (v: unknown) => v is T,
  load: () => Promise<{ value: T; tags: string[] }>,
): Promise<T> {
  return preview ? (await load()).value : siteCache().get(key, isValue, load);
}

/** The working copy of a preview resolved for `locale`: default-locale data overlaid with the locale's translation. */
function workingCopyFields(preview: PreviewSession, locale: string): Fields {
  return { ...preview.data, ...(preview.translations[locale] ?? {}) };
}

async function previewPost(preview: PreviewSession, locale: string): Promise<PostView> {
  const fields = workingCopyFields(preview, locale);
  // The working copy holds ids where delivered entries hold resolved relations and media.
  const authorId = text(fields, 'author');
  const authors = authorId ? await listAuthors(locale, preview) : [];
  const coverId = text(fields, 'cover');
  const cover = coverId
    ? toMedia((await deliveryGet(`/media/${encodeURIComponent(coverId)}`, {}, runtime().config.deliveryKey).catch(() => ({ data: null }))).data)
    : null;
  const entry: Fields = { id: preview.entryId, slug: preview.entrySlug, status: preview.status };
  return toPost(entry, fields, authors.find((a) => a.id === authorId) ?? null, cover, true);
}

function previewedPost(preview: PreviewSession | null): preview is PreviewSession {
  return preview !== null && preview.typeSlug === 'post';
}

/** The authors in `locale` (used to resolve a working copy's author id). */
export async function listAuthors(locale: string, preview: PreviewSession | null): Promise<AuthorView[]> {
  return cached(preview, `authors:${locale}`, isAuthors, async () => {
    const { data } = await deliveryGet('/entries', { type: 'author', locale, limit: '100' }, keyFor(preview));
    const authors = records(data).flatMap((e) => toAuthor(e) ?? []);
    return { value: authors, tags: ['type:author', ...authors.map((a) => `entry:${a.id}`)] };
  });
}

/** Published posts in `locale`, newest first (`published_on:desc`); in preview mode with working copies. */
export async function listPosts(locale: string, preview: PreviewSession | null, limit = 20): Promise<PostView[]> {
  const posts = await cached(preview, `posts:${locale}:${limit}`, isPosts, async () => {
    const { data } = await deliveryGet('/entries', { type: 'post', locale, sort: 'published_on:desc', limit: String(limit) }, keyFor(preview));
    const entries = records(data);
    const tags = new Set(['type:post', ...entries.flatMap((e) => (typeof e.id === 'string' ? [`entry:${e.id}`] : []))]);
    relatedTags(
      entries.map((e) => parseData(e.data)),
      tags,
    );
    return { value: entries.map(deliveredPost), tags: [...tags] };
  });
  if (!previewedPost(preview)) return posts;
  const working = await previewPost(preview, locale);
  return posts.some((p) => p.id === working.id) ? posts.map((p) => (p.id === working.id ? working : p)) : [working, ...posts];
}

/** One post by slug in `locale`; throws QuireError 404 when there is none (for this key). */
export async function getPost(locale: string, slug: string, preview: PreviewSession | null): Promise<PostView> {
  if (previewedPost(preview) && preview.entrySlug === slug) return previewPost(preview, locale);
  return cached(preview, `post:${locale}:${slug}`, isPost, async () => {
    const { data } = await deliveryGet(`/entries/${encodeURIComponent(slug)}`, { type: 'post', locale }, keyFor(preview));
    const answer = isRecord(data) ? data : {};
    const entry = record(answer, 'entry') ?? {};
    const post = { ...deliveredPost(entry), isFallback: answer.is_fallback === true };
    return { value: post, tags: ['type:post', `entry:${post.id}`, ...relatedTags(parseData(entry.data))] };
  });
}

/** Pages for the navigation, in their order, with titles in `locale`. */
export async function listPages(locale: string, preview: PreviewSession | null): Promise<NavItem[]> {
  return cached(preview, `pages:${locale}`, isNav, async () => {
    const { data } = await deliveryGet('/pages', { locale, limit: '20' }, keyFor(preview));
    const pages = records(data);
    const nav = pages.map((p) => ({ slug: text(p, 'slug') ?? '', title: text(record(p, 'seo') ?? {}, 'title') ?? text(p, 'slug') ?? '' }));
    return { value: nav, tags: ['pages', ...pages.flatMap((p) => (typeof p.id === 'string' ? [`page:${p.id}`] : []))] };
  });
}

function toBlock(value: Fields): BlockView {
  return {
    id: text(value, 'id') ?? '',
    type: text(value, 'type') ?? '',
    data: parseData(value.data),
    children: records(value.children).map(toBlock),
  };
}

/** One page with its block tree in `locale`; throws QuireError 404 when there is none. */
export async function getPage(locale: string, slug: string, preview: PreviewSession | null): Promise<PageView> {
  return cached(preview, `page:${locale}:${slug}`, isPage, async () => {
    const { data } = await deliveryGet(`/pages/${encodeURIComponent(slug)}`, { locale }, keyFor(preview));
    const answer = isRecord(data) ? data : {};
    const page = record(answer, 'page') ?? {};
    const seo = record(page, 'seo') ?? {};
    const blocks = records(answer.blocks).map(toBlock);
    const id = text(page, 'id') ?? '';
    return {
      value: {
        id,
        slug: text(page, 'slug') ?? slug,
        title: text(seo, 'title') ?? slug,
        description: text(seo, 'description'),
        blocks,
        isFallback: page.is_fallback === true,
      },
      tags: ['pages', `page:${id}`, ...relatedTags(blocks.map((b) => b.data))],
    };
  });
}

/**
 * Checks a preview token with Quire (`GET /public/preview`, never cached) and returns the session
 * it opens, or null when the token is expired, tampered or names nothing this key may see.
 */
export async function openPreview(token: string): Promise<PreviewSession | null> {
  try {
    const [{ data }, schema] = await Promise.all([deliveryGet('/preview', { token }, runtime().config.deliveryKey), getSite()]);
    const entry = record(isRecord(data) ? data : {}, 'entry') ?? {};
    const translations: Record<string, Fields> = {};
    for (const t of records(entry.translations)) {
      const locale = text(t, 'locale');
      if (locale) translations[locale] = parseData(t.data);
    }
    const typeId = text(entry, 'content_type_id') ?? '';
    return {
      token,
      entryId: text(entry, 'id') ?? '',
      entrySlug: text(entry, 'slug') ?? '',
      typeSlug: schema.typeSlugs[typeId] ?? '',
      data: parseData(entry.data),
      translations,
      status: text(entry, 'status') ?? 'draft',
    };
  } catch (err) {
    if (err instanceof QuireError && [400, 401, 403, 404].includes(err.status)) return null;
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
    if (err instanceof QuireError && err.status === 404) return null;
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
