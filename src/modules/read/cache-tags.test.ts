import { describe, expect, it } from 'vitest';
import { AnswerTags, changeTags, MAX_TAGS, tagHeaders } from './cache-tags.js';

const WS = 'w1';
const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

describe('AnswerTags.resolve (the cap)', () => {
  it('keeps every tag within the cap, lists first', () => {
    const t = new AnswerTags(WS);
    t.list(`t:${WS}:post`);
    t.item(`e:${id(1)}`, `t:${WS}:post`);
    t.item(`e:${id(1)}`, `t:${WS}:post`);
    expect(t.resolve()).toEqual([`t:${WS}:post`, `e:${id(1)}`]);
  });

  it('over the cap, items give way to their list tags, unknown ones to any:', () => {
    const t = new AnswerTags(WS);
    t.list(`model:${WS}`);
    t.list(`t:${WS}:post`);
    for (let i = 0; i < MAX_TAGS; i++) t.item(`e:${id(i)}`, `t:${WS}:post`);
    t.item(`e:${id(999)}`, `t:${WS}:author`);
    t.item(`m:${id(1000)}`, `media:${WS}`);
    t.item(`e:${id(1001)}`, null);
    expect(t.resolve().sort()).toEqual([`any:${WS}`, `media:${WS}`, `model:${WS}`, `t:${WS}:author`, `t:${WS}:post`].sort());
  });

  it('a known list wins over null for the same item, and lists alone over the cap leave model: and any:', () => {
    const t = new AnswerTags(WS);
    t.item(`e:${id(1)}`, null);
    t.item(`e:${id(1)}`, `t:${WS}:post`);
    for (let i = 0; i < MAX_TAGS; i++) t.item(`e:${id(100 + i)}`, `t:${WS}:post`);
    expect(t.resolve()).toEqual([`t:${WS}:post`]);
    const lists = new AnswerTags(WS);
    for (let i = 0; i <= MAX_TAGS; i++) lists.list(`t:${WS}:type${i}`);
    expect(lists.resolve()).toEqual([`model:${WS}`, `any:${WS}`]);
  });

  it('bounds the header bytes too', () => {
    const t = new AnswerTags(WS);
    for (let i = 0; i < 40; i++) t.item(`e:${'x'.repeat(150)}${i}`, `t:${WS}:post`);
    expect(t.resolve()).toEqual([`t:${WS}:post`]);
  });
});

describe('changeTags', () => {
  it('names the item, its list and any: for each kind', () => {
    expect(changeTags({ workspaceId: WS, itemKind: 'entry', itemId: 'a', contentType: 'post' })).toEqual(['e:a', `t:${WS}:post`, `any:${WS}`]);
    expect(changeTags({ workspaceId: WS, itemKind: 'page', itemId: 'p', contentType: null })).toEqual(['p:p', `pages:${WS}`, `any:${WS}`]);
    expect(changeTags({ workspaceId: WS, itemKind: 'media', itemId: 'm', contentType: null })).toEqual(['m:m', `media:${WS}`, `any:${WS}`]);
    expect(changeTags({ workspaceId: WS, itemKind: 'content_type', itemId: 'c', contentType: 'post' })).toEqual([`model:${WS}`, `t:${WS}:post`, `any:${WS}`]);
    expect(changeTags({ workspaceId: WS, itemKind: 'release', itemId: 'r', contentType: null })).toEqual(['r:r', `any:${WS}`]);
  });

  it('headers: comma- and space-separated', () => {
    expect(tagHeaders(['a', 'b'])).toEqual({ cacheTag: 'a,b', surrogateKey: 'a b' });
  });
});
