/**
 * The GraphQL explorer's screen in jsdom with a fake API (fetch stubbed) and a stand-in for
 * GraphiQL that runs its fetcher: without a key it asks for one; a pasted key is kept in the tab's
 * sessionStorage (never localStorage or the URL) and sent as X-API-Key to the GraphQL API; an
 * owner creates a preview key in one click (POST /api-keys) and toggles production and preview;
 * a viewer is told who makes keys. The default query names the first content type.
 */
import { useState } from 'react';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentType } from '../../api/types';
import { ok, okList, renderScreen } from '../../app/test-utils';
import type { GraphiqlPaneProps } from './GraphiqlPane';
import { ExplorerScreen } from './ExplorerScreen';

if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} }, configurable: true });

const T = '2026-11-25T09:00:00.000Z';
const post = {
  id: '01900000-0000-7000-8000-000000000001',
  slug: 'blog-post',
  name: 'Blog post',
  is_block: false,
  display_field: 'title',
  fields: [{ id: 'f1', name: 'title', field_type: 'text', sort_order: 1 }],
  created_at: T,
  updated_at: T,
} as unknown as ContentType;

interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Stubs fetch: the management API (content types, api-keys) and the GraphQL API, which answers with the key it got. */
function stubApi(): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const call: Call = {
        method: init?.method ?? 'GET',
        url: new URL(input, 'http://studio.test').pathname,
        headers: (init?.headers ?? {}) as Record<string, string>,
        body: init?.body ? JSON.parse(String(init.body)) : null,
      };
      calls.push(call);
      if (call.url === '/api/v1/manage/content-types') return okList([post]);
      if (call.url === '/api/v1/manage/api-keys' && call.method === 'POST')
        return ok({ id: 'k1', name: (call.body as { name: string }).name, key: 'svc_live_preview' });
      if (call.url === '/api/v1/manage/api-keys') return okList([]);
      if (call.url === '/api/v1/public/graphql')
        return new Response(JSON.stringify({ data: { blogPostCollection: { totalCount: 1, key: call.headers['X-API-Key'] } } }), {
          status: 200,
          headers: { 'Content-Type': 'application/graphql-response+json' },
        });
      return new Response('{}', { status: 404 });
    }),
  );
  return calls;
}

/** Stands in for GraphiQL: shows the default query and runs it through the fetcher on "Run". */
function FakePane({ fetcher, defaultQuery, workspaceId }: GraphiqlPaneProps) {
  const [answer, setAnswer] = useState('');
  return (
    <div>
      <pre aria-label="Query">{defaultQuery}</pre>
      <span>workspace {workspaceId}</span>
      <button type="button" onClick={() => void fetcher({ query: defaultQuery }).then((r) => setAnswer(JSON.stringify(r)))}>
        Run
      </button>
      <output aria-label="Answer">{answer}</output>
    </div>
  );
}

const render = (role: 'owner' | 'viewer') => renderScreen(<ExplorerScreen Pane={FakePane} />, '/:workspace/graphql', '/demo/graphql', role);

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe('GraphQL explorer', () => {
  it('asks for a key, keeps it in sessionStorage only, and sends it as X-API-Key', async () => {
    const calls = stubApi();
    render('owner');
    const user = userEvent.setup();
    expect(screen.queryByRole('button', { name: 'Run' })).toBeNull();
    const use = screen.getByRole('button', { name: 'Use these keys' });
    expect((use as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByLabelText(/^Production key/), 'svc_live_production');
    await user.click(use);

    expect((await screen.findByLabelText('Query')).textContent).toContain('blogPostCollection(first: 5)');
    expect(screen.getByText('Production key: published content')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(screen.getByLabelText('Answer').textContent).toContain('svc_live_production'));
    const graphql = calls.filter((c) => c.url === '/api/v1/public/graphql');
    expect(graphql).toHaveLength(1);
    expect(graphql[0].method).toBe('POST');
    expect(graphql[0].headers['X-API-Key']).toBe('svc_live_production');

    expect(JSON.parse(sessionStorage.getItem('quire.explorer.ws-1')!)).toEqual({ production: 'svc_live_production', preview: null, use: 'production' });
    for (let i = 0; i < localStorage.length; i += 1) expect(localStorage.getItem(localStorage.key(i)!)).not.toContain('svc_live_production');
    expect(window.location.href).not.toContain('svc_live');
  });

  it('an owner creates a preview key in one click and toggles production and preview', async () => {
    const calls = stubApi();
    sessionStorage.setItem('quire.explorer.ws-1', JSON.stringify({ production: 'svc_live_production', preview: null, use: 'production' }));
    render('owner');
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'Run' });
    await user.click(screen.getByRole('button', { name: 'Change keys' }));
    await user.click(screen.getByRole('button', { name: 'Create a preview key for the explorer' }));

    const created = calls.find((c) => c.method === 'POST' && c.url === '/api/v1/manage/api-keys')!;
    expect(created.body).toMatchObject({ name: 'GraphQL explorer (a@example.com)', key_class: 'delivery', environment: 'preview' });
    const days = (Date.parse((created.body as { expires_at: string }).expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    expect(await screen.findByText(/reads drafts too and expires on/)).toBeTruthy();

    // Both keys: the toggle, on preview (the key just made).
    const preview = await screen.findByRole('radio', { name: 'Preview (drafts too)' });
    expect((preview as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(screen.getByLabelText('Answer').textContent).toContain('svc_live_preview'));
    await user.click(screen.getByRole('radio', { name: 'Production (published)' }));
    await user.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(screen.getByLabelText('Answer').textContent).toContain('svc_live_production'));
    expect(calls.filter((c) => c.url === '/api/v1/public/graphql').map((c) => c.headers['X-API-Key'])).toEqual(['svc_live_preview', 'svc_live_production']);
    expect(JSON.parse(sessionStorage.getItem('quire.explorer.ws-1')!)).toEqual({
      production: 'svc_live_production',
      preview: 'svc_live_preview',
      use: 'production',
    });

    // Forget keys: back to the form, nothing stored.
    await user.click(screen.getByRole('button', { name: 'Change keys' }));
    await user.click(screen.getByRole('button', { name: 'Forget keys' }));
    expect(await screen.findByRole('button', { name: 'Use these keys' })).toBeTruthy();
    expect(sessionStorage.getItem('quire.explorer.ws-1')).toBeNull();
  });

  it('a viewer cannot create keys and is told who can', async () => {
    stubApi();
    render('viewer');
    expect(await screen.findByText(/Owners and admins create delivery keys/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create a preview key for the explorer' })).toBeNull();
  });
});
