import { describe, expect, it } from 'vitest';
import { previewUrl, readFrontEndMessage, updateMessage } from './preview-protocol';

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
});
