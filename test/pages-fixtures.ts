/**
 * Fixtures of the page suites: a workspace (en default; de, fr) with block types for a typical
 * marketing page (hero, rich text, feature grid with items, call to action), an entry type for
 * relations inside blocks, and request helpers.
 */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../src/context.js';
import { call, insertMediaRow, seedWorkspace, type Res } from './helpers.js';

export const M = '/api/v1/manage';
export const P = '/api/v1/public';

export const BLOCK_TYPES = [
  {
    name: 'Hero',
    slug: 'hero',
    is_block: true,
    fields: [
      { name: 'headline', field_type: 'text', required: true, localizable: true },
      { name: 'subline', field_type: 'textarea', localizable: true },
      { name: 'image', field_type: 'media' },
      { name: 'featured', field_type: 'relation', options: '["article"]' },
    ],
  },
  { name: 'Rich text', slug: 'rich-text', is_block: true, fields: [{ name: 'body', field_type: 'rich_text', localizable: true }] },
  {
    name: 'Feature grid',
    slug: 'feature-grid',
    is_block: true,
    fields: [
      { name: 'title', field_type: 'text', localizable: true },
      { name: 'columns', field_type: 'integer', validation: '{"min":1,"max":4}' },
    ],
  },
  {
    name: 'Feature item',
    slug: 'feature-item',
    is_block: true,
    fields: [
      { name: 'label', field_type: 'text', required: true, localizable: true },
      { name: 'icon', field_type: 'text' },
      { name: 'articles', field_type: 'relation_list', options: '["article"]' },
    ],
  },
  {
    name: 'Call to action',
    slug: 'cta',
    is_block: true,
    fields: [
      { name: 'label', field_type: 'text', localizable: true },
      { name: 'url', field_type: 'url' },
    ],
  },
];

export const ARTICLE_TYPE = {
  name: 'Article',
  slug: 'article',
  display_field: 'title',
  fields: [
    { name: 'title', field_type: 'text', localizable: true },
    { name: 'summary', field_type: 'textarea', localizable: true },
  ],
};

export interface PageWorld {
  workspaceId: string;
  userId: number;
  keys: { management: string; delivery: string; preview: string };
  /** Content type id by slug. */
  types: Record<string, string>;
  req(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, headers?: Record<string, string>, key?: string): Promise<Res>;
  /** A published article (with a de translation) created over the management API; returns its id. */
  article(slug: string, title: string, deTitle?: string): Promise<string>;
  /** A media record inserted directly; returns its id. */
  media(fields?: { deleted?: boolean; alt_text?: string; title?: string; description?: string }): Promise<string>;
}

/** A workspace with the page block types and the article type. */
export async function createPageWorld(ctx: Context, app: FastifyInstance): Promise<PageWorld> {
  const s = await seedWorkspace(ctx, { locales: ['en', 'de', 'fr'] });
  const key = s.keys.management;
  const types: Record<string, string> = {};
  for (const body of [ARTICLE_TYPE, ...BLOCK_TYPES]) {
    const res = await call(app, 'POST', `${M}/content-types`, { key, body });
    if (res.status !== 201) throw new Error(`content type: ${res.status} ${JSON.stringify(res.body)}`);
    types[res.body.data.slug] = res.body.data.id;
  }
  const req: PageWorld['req'] = (method, url, body, headers, k = key) =>
    call(app, method, url.startsWith('/api/') ? url : `${M}${url}`, { key: k, body, headers });
  return {
    workspaceId: s.workspace.id,
    userId: s.user.id,
    keys: s.keys,
    types,
    req,
    article: async (slug, title, deTitle) => {
      const res = await req('POST', '/content-types/article/entries', {
        slug,
        data: { title, summary: `About ${title}` },
        ...(deTitle ? { translations: { de: { data: { title: deTitle } } } } : {}),
      });
      if (res.status !== 201) throw new Error(`article: ${res.status} ${JSON.stringify(res.body)}`);
      const pub = await req('PATCH', `/content-types/article/entries/${slug}/publish`);
      if (pub.status !== 200) throw new Error(`publish article: ${pub.status} ${JSON.stringify(pub.body)}`);
      return res.body.data.id as string;
    },
    media: async (fields = {}) =>
      insertMediaRow(ctx, s.workspace.id, s.user.id, {
        width: 800,
        height: 600,
        focal_y: 0.5,
        original_name: 'image.png',
        deleted: fields.deleted,
        ...(fields.alt_text ? { alt_text: fields.alt_text } : {}),
        ...(fields.title ? { title: fields.title } : {}),
        ...(fields.description ? { description: fields.description } : {}),
      }),
  };
}

/** A rich-text document with one paragraph. */
export function doc(text: string): Record<string, unknown> {
  return { nodeType: 'document', data: {}, content: [{ nodeType: 'paragraph', data: {}, content: [{ nodeType: 'text', value: text, marks: [], data: {} }] }] };
}

/** Flattens a wire block tree (pre-order) for assertions. */
export function flat(blocks: any[]): any[] {
  return blocks.flatMap((b) => [b, ...flat(b.children)]);
}
