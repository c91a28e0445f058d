/**
 * Calls of the pages screens (docs/pages.md "Writing pages (management API)"; D5, D20-D26, D34,
 * D70-D72), all through the one API client. Writes to one page send `If-Match` with the ETag last
 * seen, so a concurrent save answers 412 instead of being overwritten. A save is a PUT of the
 * whole working copy: SEO, SEO translations and the block tree with ids and translations.
 */
import { api } from '../../api/client';
import type { Page, PageDetail, PageMeta, Version, WithWorkflow } from '../../api/types';
import type { StateVerb } from '../entries/api';
import { wireOfDraft, type PageDraft, type SeoOverrides } from './tree';

const one = (slug: string) => `/pages/${encodeURIComponent(slug)}`;
/** A page's path under /api/v1/manage (its workflow actions, api/workflows.ts). */
export const pagePath = one;

/** The page of a detail read, with its review workflow state (D130) wherever the read carries it. */
export function pageOf(detail: PageDetail): Page {
  const outer = (detail as PageDetail & WithWorkflow).workflow;
  return outer !== undefined && (detail.page as Page & WithWorkflow).workflow === undefined ? ({ ...detail.page, workflow: outer } as Page) : detail.page;
}

/** A page's display title: its SEO title, else its slug. */
export const pageTitle = (p: Pick<Page, 'slug' | 'seo'>) => p.seo.title?.trim() || p.slug;

/** Review workflow filters of the page list (D130): a stage (id or name), an assignee (`me` or a user id). */
export interface PageFilters {
  stage?: string;
  assignee?: string;
}

/** Every page of the workspace in navigation order (all pages of GET /pages, 100 at a time), or those the filters keep. */
export async function listAllPages(filters: PageFilters = {}): Promise<Page[]> {
  const all: Page[] = [];
  for (let page = 1; page <= 200; page += 1) {
    const res = await api<Page[], PageMeta>('/pages', { query: { page, limit: 100, sort: 'position:asc', ...filters } });
    all.push(...res.data);
    if (!res.meta.total_pages || page >= res.meta.total_pages) break;
  }
  return all;
}

export interface PageWithTag {
  detail: PageDetail;
  etag: string | null;
}

/** The working copy; with `release`, the page's release version in that release (docs/releases.md). */
export async function getPage(slug: string, release?: string | null): Promise<PageWithTag> {
  const res = await api<PageDetail>(one(slug), { query: { release } });
  return { detail: res.data, etag: res.etag };
}

export async function createPage(body: { slug: string; seo?: Partial<PageDraft['seo']>; seo_translations?: Record<string, SeoOverrides> }): Promise<Page> {
  return (await api<Page>('/pages', { method: 'POST', body })).data;
}

export interface SavedPage {
  page: Page;
  etag: string | null;
}

/**
 * PUT of the working copy; `rename` changes the slug at once. With `release`, of the page's release
 * version in that release, without If-Match (a release version has no ETag of its own).
 */
export async function savePage(slug: string, draft: PageDraft, etag: string | null, rename?: string, release?: string | null): Promise<SavedPage> {
  const res = await api<Page>(one(slug), { method: 'PUT', query: { release }, ifMatch: release ? null : etag, body: { ...wireOfDraft(draft), slug: rename } });
  return { page: res.data, etag: res.etag };
}

export async function deletePage(slug: string, etag: string | null): Promise<void> {
  await api<null>(one(slug), { method: 'DELETE', ifMatch: etag });
}

export async function duplicatePage(slug: string): Promise<Page> {
  return (await api<Page>(`${one(slug)}/duplicate`, { method: 'POST' })).data;
}

/** Navigation order: every page id of the workspace (D34); applies at once, not versioned. */
export async function reorderPages(order: string[]): Promise<void> {
  await api<null>('/pages/reorder', { method: 'PATCH', body: { order } });
}

/** publish / unpublish / archive / schedule: answers the new ETag. */
export async function changePageState(slug: string, verb: StateVerb, etag: string | null, publishAt?: string): Promise<string | null> {
  const res = await api<unknown>(`${one(slug)}/${verb}`, {
    method: 'PATCH',
    ifMatch: etag,
    body: verb === 'schedule' ? { publish_at: publishAt } : undefined,
  });
  return res.etag;
}

export async function listPageVersions(slug: string, page: number): Promise<{ items: Version[]; meta: PageMeta }> {
  const res = await api<Version[], PageMeta>(`${one(slug)}/versions`, { query: { page, limit: 20 } });
  return { items: res.data, meta: res.meta };
}

export async function getPageVersion(slug: string, version: number): Promise<PageDetail> {
  return (await api<PageDetail, Version>(`${one(slug)}/versions/${version}`)).data;
}

export async function restorePageVersion(slug: string, version: number, etag: string | null): Promise<SavedPage> {
  const res = await api<Page>(`${one(slug)}/versions/${version}/restore`, { method: 'POST', ifMatch: etag });
  return { page: res.data, etag: res.etag };
}

/** POST /preview-tokens `{page_id}`: a token (48 hours) naming the page, for the live preview. */
export async function mintPagePreviewToken(pageId: string): Promise<{ token: string; expires_at: string }> {
  return (await api<{ token: string; expires_at: string }>('/preview-tokens', { method: 'POST', body: { page_id: pageId } })).data;
}
