/**
 * `has_pending_changes` compares content, not save events (docs/api.md "Working copies,
 * publishing changes and history" (D70); issue 27 item 4), on SQLite and PostgreSQL: a published
 * entry or page has pending changes exactly when its working copy differs from its published
 * version. Typing the original text back (entry fields, page block content and SEO), restoring
 * the published version from history, and changing a translation and changing it back each leave
 * it false, in the detail and in the list the Studio's "Changed" badge reads; a real change sets
 * it. After a release published a version while the working copy kept other changes, typing the
 * release's text back clears it too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, dialects, type Res, type TestEnv } from './helpers.js';
import { createPageWorld, type PageWorld } from './pages-fixtures.js';

const T0 = Date.parse('2026-12-01T09:00:00.000Z');

describe.each(dialects())('pending changes compare the working copy with the published version on %s', (dialect) => {
  let env: TestEnv;
  let w: PageWorld;
  let now = T0;

  const ok = async (res: Promise<Res>, status = 200): Promise<any> => {
    const r = await res;
    if (r.status !== status) throw new Error(`expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const article = (slug: string) => `/content-types/article/entries/${slug}`;
  const putArticle = (slug: string, data: Record<string, unknown>, de?: Record<string, unknown>) =>
    ok(w.req('PUT', article(slug), de ? { data, translations: { de: { data: de } } } : { data }));
  /** has_pending_changes of an entry in its detail and in the entries list (what the Studio's badge reads). */
  const entryPending = async (slug: string): Promise<boolean> => {
    const detail = await ok(w.req('GET', article(slug)));
    const list = await ok(w.req('GET', `/content-types/article/entries?limit=100`));
    const row = list.find((e: { slug: string }) => e.slug === slug);
    expect(row.has_pending_changes).toBe(detail.has_pending_changes);
    return detail.has_pending_changes;
  };

  /** A page detail as a PUT body keeping every block id and translation. */
  const pageBody = async (slug: string) => {
    const d = await ok(w.req('GET', `/pages/${slug}`));
    const trs = new Map<string, Record<string, { data: unknown }>>();
    for (const t of d.block_translations) trs.set(t.block_id, { ...trs.get(t.block_id), [t.locale]: { data: JSON.parse(t.data) } });
    const conv = (b: any): any => ({ id: b.id, type: b.type, data: JSON.parse(b.data), translations: trs.get(b.id) ?? {}, children: b.children.map(conv) });
    return {
      seo: Object.fromEntries(Object.entries(d.page.seo).filter(([, v]) => v !== null)) as Record<string, unknown>,
      seo_translations: Object.fromEntries(d.seo_translations.map((t: any) => [t.locale, t.seo])) as Record<string, Record<string, unknown>>,
      blocks: d.blocks.map(conv) as any[],
    };
  };
  const editPage = async (slug: string, change: (b: Awaited<ReturnType<typeof pageBody>>) => void) => {
    const body = await pageBody(slug);
    change(body);
    return ok(w.req('PUT', `/pages/${slug}`, body));
  };
  const pagePending = async (slug: string): Promise<boolean> => {
    const detail = await ok(w.req('GET', `/pages/${slug}`));
    const list = await ok(w.req('GET', '/pages?limit=100'));
    expect(list.find((p: { slug: string }) => p.slug === slug).has_pending_changes).toBe(detail.page.has_pending_changes);
    return detail.page.has_pending_changes;
  };

  beforeAll(async () => {
    // Every write a second apart, inside the coalescing window: coalesced versions must not hide the published one.
    env = await createTestEnv(dialect, { clock: () => new Date((now += 1000)), config: { versionCoalesceSeconds: 60 } });
    w = await createPageWorld(env.ctx, env.app);
  });
  afterAll(async () => env?.close());

  it('an entry: typing the original text back clears pending changes; a real change sets them', async () => {
    await w.article('typed-back', 'Original', 'Ursprung');
    expect(await entryPending('typed-back')).toBe(false);
    await putArticle('typed-back', { title: 'Origina', summary: 'About Original' }, { title: 'Ursprung' });
    expect(await entryPending('typed-back')).toBe(true);
    await putArticle('typed-back', { title: 'Original', summary: 'About Original' }, { title: 'Ursprung' });
    expect(await entryPending('typed-back')).toBe(false);
    // A save of the same content again changes nothing.
    await putArticle('typed-back', { title: 'Original', summary: 'About Original' }, { title: 'Ursprung' });
    expect(await entryPending('typed-back')).toBe(false);
    await putArticle('typed-back', { title: 'Changed for real', summary: 'About Original' }, { title: 'Ursprung' });
    expect(await entryPending('typed-back')).toBe(true);
    // Publishing the change makes it the published version; nothing is pending.
    await ok(w.req('PATCH', `${article('typed-back')}/publish`));
    expect(await entryPending('typed-back')).toBe(false);
  });

  it('an entry: changing a translation and changing it back clears pending changes', async () => {
    await w.article('translated', 'Title', 'Titel');
    await putArticle('translated', { title: 'Title', summary: 'About Title' }, { title: 'Neuer Titel' });
    expect(await entryPending('translated')).toBe(true);
    await putArticle('translated', { title: 'Title', summary: 'About Title' }, { title: 'Titel' });
    expect(await entryPending('translated')).toBe(false);
  });

  it('an entry: restoring the published version from history clears pending changes; restoring another sets them', async () => {
    await w.article('restored', 'First', 'Erster');
    const published = (await ok(w.req('GET', article('restored')))).published_version as number;
    await putArticle('restored', { title: 'Second', summary: 'About First' }, { title: 'Erster' });
    await putArticle('restored', { title: 'Third', summary: 'About First' }, { title: 'Erster' });
    expect(await entryPending('restored')).toBe(true);
    const restored = await ok(w.req('POST', `${article('restored')}/versions/${published}/restore`));
    expect(restored.has_pending_changes).toBe(false);
    expect(await entryPending('restored')).toBe(false);
    const versions = await ok(w.req('GET', `${article('restored')}/versions?limit=100`));
    const update = versions.find((v: { action: string }) => v.action === 'update');
    await ok(w.req('POST', `${article('restored')}/versions/${update.version}/restore`));
    expect(await entryPending('restored')).toBe(true);
  });

  it('a page: block content, SEO and their translations typed back clear pending changes; a real change sets them', async () => {
    await ok(
      w.req('POST', '/pages', {
        slug: 'landing',
        seo: { title: 'Landing', description: 'The landing page' },
        seo_translations: { de: { title: 'Start' } },
        blocks: [{ type: 'hero', data: { headline: 'Hello', subline: 'Sub' }, translations: { de: { data: { headline: 'Hallo' } } } }],
      }),
      201,
    );
    await ok(w.req('PATCH', '/pages/landing/publish'));
    expect(await pagePending('landing')).toBe(false);

    const steps: [string, (b: Awaited<ReturnType<typeof pageBody>>, back: boolean) => void][] = [
      ['block field', (b, back) => void (b.blocks[0].data.headline = back ? 'Hello' : 'Hello!')],
      ['block translation', (b, back) => void (b.blocks[0].translations.de.data.headline = back ? 'Hallo' : 'Hallo!')],
      ['SEO', (b, back) => void (b.seo.title = back ? 'Landing' : 'Landing page')],
      ['SEO translation', (b, back) => void (b.seo_translations.de.title = back ? 'Start' : 'Startseite')],
    ];
    for (const [what, change] of steps) {
      await editPage('landing', (b) => change(b, false));
      expect(await pagePending('landing'), what).toBe(true);
      await editPage('landing', (b) => change(b, true));
      expect(await pagePending('landing'), what).toBe(false);
    }
    await editPage('landing', (b) => void b.blocks.push({ type: 'cta', data: { label: 'Go', url: 'https://example.com/' } }));
    expect(await pagePending('landing')).toBe(true);
  });

  it('a page: restoring the published version from history clears pending changes', async () => {
    await ok(w.req('POST', '/pages', { slug: 'restore-me', seo: { title: 'Kept' }, blocks: [{ type: 'hero', data: { headline: 'Kept' } }] }), 201);
    await ok(w.req('PATCH', '/pages/restore-me/publish'));
    const published = (await ok(w.req('GET', '/pages/restore-me'))).page.published_version as number;
    await editPage('restore-me', (b) => void (b.blocks[0].data.headline = 'Edited'));
    await editPage('restore-me', (b) => void (b.seo.title = 'Edited'));
    expect(await pagePending('restore-me')).toBe(true);
    const restored = await ok(w.req('POST', `/pages/restore-me/versions/${published}/restore`));
    expect(restored.has_pending_changes).toBe(false);
    expect(await pagePending('restore-me')).toBe(false);
  });

  it('after a release published its version over a changed working copy, typing the release text back clears pending changes', async () => {
    const id = await w.article('released', 'Live', 'Live de');
    await putArticle('released', { title: 'Working', summary: 'About Live' }, { title: 'Live de' });
    const rel = (await ok(w.req('POST', '/releases', { title: 'Launch' }), 201)).id as string;
    await ok(w.req('POST', `/releases/${rel}/items`, { kind: 'entry', id, action: 'publish' }));
    await ok(
      w.req('PUT', `${article('released')}?release=${rel}`, {
        data: { title: 'Release', summary: 'About Live' },
        translations: { de: { data: { title: 'Live de' } } },
      }),
    );
    await ok(w.req('POST', `/releases/${rel}/publish`));
    expect(await entryPending('released')).toBe(true);
    await putArticle('released', { title: 'Release', summary: 'About Live' }, { title: 'Live de' });
    expect(await entryPending('released')).toBe(false);
  });
});
