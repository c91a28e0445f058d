/**
 * Browser code of the "latest" page: loads the five newest posts from Quire's delivery API
 * (`GET /api/v1/public/entries?type=post&sort=published_on:desc`, a cross-origin request with the
 * public delivery key in `X-API-Key`, allowed by Quire's CORS headers) and lists them. Built from
 * DOM nodes with textContent, never innerHTML: the content is data, not markup.
 */

interface LatestPost {
  slug: string;
  title: string;
  excerpt: string | null;
  publishedOn: string | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function field(data: Record<string, unknown>, name: string): string | null {
  const v = data[name];
  return typeof v === 'string' && v !== '' ? v : null;
}

/** The posts of a delivery list answer (`data[].data` is a JSON string, D1). */
export function postsOf(body: unknown): LatestPost[] {
  const list = isRecord(body) && Array.isArray(body.data) ? body.data : [];
  return list.filter(isRecord).map((entry) => {
    const parsed: unknown = typeof entry.data === 'string' ? JSON.parse(entry.data) : entry.data;
    const data = isRecord(parsed) ? parsed : {};
    return {
      slug: typeof entry.slug === 'string' ? entry.slug : '',
      title: field(data, 'title') ?? '',
      excerpt: field(data, 'excerpt'),
      publishedOn: field(data, 'published_on'),
    };
  });
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text: string | null, className?: string): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (text !== null) el.textContent = text;
  if (className) el.className = className;
  return el;
}

/** Fills `host` (a <quire-latest> element with its data-* settings) with the newest posts. */
export async function renderLatest(host: HTMLElement): Promise<void> {
  const { url, key, locale = 'en', failed = 'Failed', noKey = 'No key' } = host.dataset;
  const status = host.querySelector('.status');
  const list = host.querySelector('.list');
  if (!status || !list) return;
  if (!url || !key) {
    status.textContent = noKey;
    return;
  }
  try {
    const query = new URLSearchParams({ type: 'post', locale, sort: 'published_on:desc', limit: '5', fields: 'title,excerpt,published_on' });
    const res = await fetch(`${url}/api/v1/public/entries?${query}`, { headers: { 'X-API-Key': key } });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const posts = postsOf(await res.json());
    const dates = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    list.replaceChildren(
      ...posts.map((post) => {
        const item = element('li', null);
        item.dataset.post = post.slug;
        const heading = element('h2', null);
        const link = element('a', post.title);
        link.href = `/${locale}/blog/${encodeURIComponent(post.slug)}`;
        heading.append(link);
        item.append(heading);
        if (post.publishedOn) item.append(element('p', dates.format(new Date(`${post.publishedOn}T00:00:00Z`)), 'meta'));
        if (post.excerpt) item.append(element('p', post.excerpt));
        return item;
      }),
    );
    status.textContent = '';
    host.dataset.state = 'loaded';
  } catch (err) {
    status.textContent = `${failed} (${err instanceof Error ? err.message : String(err)})`;
    host.dataset.state = 'failed';
  }
}
