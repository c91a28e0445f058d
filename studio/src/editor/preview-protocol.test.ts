import { describe, expect, it } from 'vitest';
import { editGoalOf, previewUrl, readFrontEndMessage, studioRoute, updateMessage } from './preview-protocol';

describe('live preview protocol', () => {
  it('fills the preview URL template, encoding each value', () => {
    expect(
      previewUrl('https://site.example/{locale}/{type}/{slug}?id={id}&token={token}', { type: 'post', slug: 'hello', id: 'u1', locale: 'de', token: 'a.b+c' }),
    ).toBe('https://site.example/de/post/hello?id=u1&token=a.b%2Bc');
    expect(previewUrl(null, { type: 'post', slug: 'x', id: 'u', locale: 'en', token: 't' })).toBeNull();
  });

  it('builds the update event from the target, locale and save time', () => {
    expect(updateMessage({ kind: 'page', id: 'p1', type: 'page', slug: 'home' }, 'de', '2026-11-25T12:00:00.000Z')).toEqual({
      type: 'quire:update',
      kind: 'page',
      id: 'p1',
      slug: 'home',
      locale: 'de',
      updated_at: '2026-11-25T12:00:00.000Z',
    });
  });

  it('reads only the front end messages of the protocol', () => {
    expect(readFrontEndMessage({ type: 'quire:preview-ready' })).toEqual({ type: 'quire:preview-ready' });
    expect(readFrontEndMessage({ type: 'quire:preview-updated', id: 'e1', updated_at: 't' })).toEqual({
      type: 'quire:preview-updated',
      id: 'e1',
      updated_at: 't',
    });
    expect(readFrontEndMessage({ type: 'quire:preview-updated', id: 5 })).toEqual({ type: 'quire:preview-updated', id: null, updated_at: null });
    for (const other of [null, 'quire:preview-ready', 42, {}, { type: 'quire:update' }, { type: 'webpackOk' }]) expect(readFrontEndMessage(other)).toBeNull();
  });

  it('reads a click-to-edit request, keeping only what the editor uses (D141)', () => {
    const edit = {
      type: 'quire:edit',
      origin: 'quire',
      kind: 'block',
      id: 'b1',
      content_type: 'hero',
      field: 'headline',
      locale: 'de',
      path: 'blocks.0',
      href: 'http://cms.test/studio/demo/pages/home',
    };
    expect(readFrontEndMessage(edit)).toEqual({
      type: 'quire:edit',
      kind: 'block',
      id: 'b1',
      field: 'headline',
      locale: 'de',
      href: 'http://cms.test/studio/demo/pages/home',
    });
    expect(readFrontEndMessage({ ...edit, kind: 'user' })).toBeNull();
    expect(readFrontEndMessage({ ...edit, id: 7 })).toBeNull();
    expect(readFrontEndMessage({ ...edit, href: undefined })).toBeNull();
  });

  it('turns a Studio URL into a route of this Studio only, and reads the field an editor URL names', () => {
    expect(studioRoute('http://cms.test/studio/demo/content/post/hello?field=title&locale=de', 'http://cms.test')).toBe(
      '/demo/content/post/hello?field=title&locale=de',
    );
    expect(studioRoute('http://evil.test/studio/demo/pages/home', 'http://cms.test')).toBeNull();
    expect(studioRoute('http://cms.test/api/v1/manage/pages', 'http://cms.test')).toBeNull();
    expect(studioRoute('not a url', 'http://cms.test')).toBeNull();
    const locales = ['en', 'de'];
    expect(editGoalOf(new URLSearchParams('block=b1&path=blocks.0&field=headline&locale=de'), locales)).toEqual({
      field: 'headline',
      locale: 'de',
      blockId: 'b1',
    });
    expect(editGoalOf(new URLSearchParams('field=title&locale=xx'), locales)).toEqual({ field: 'title', locale: null, blockId: null });
    expect(editGoalOf(new URLSearchParams('locale=de'), locales)).toBeNull();
  });
});
