/** GraphQL names of a content model (docs/graphql.md "Names"): cases, collisions, stability. */
import { describe, expect, it } from 'vitest';
import { nameTypes, pascalCase, type NamedType } from './names.js';

let n = 0;
const id = () => `01900000-0000-7000-8000-${String((n += 1)).padStart(12, '0')}`;
const entry = (slug: string, fields: string[] = []): NamedType => ({ id: id(), slug, is_block: false, fields: fields.map((name) => ({ id: id(), name })) });
const block = (slug: string, fields: string[] = []): NamedType => ({ ...entry(slug, fields), is_block: true });

describe('GraphQL names', () => {
  it('PascalCase types, camelCase root fields, Block on block types, _ before a leading digit', () => {
    expect(pascalCase('blog-post')).toBe('BlogPost');
    expect(pascalCase('404-page')).toBe('_404Page');
    const types = [entry('blog-post'), block('hero'), entry('3d-model')];
    const names = nameTypes(types);
    expect(names.get(types[0].id)).toMatchObject({
      type: 'BlogPost',
      one: 'blogPost',
      collection: 'blogPostCollection',
      filter: 'BlogPostFilter',
      order: 'BlogPostOrder',
    });
    expect(names.get(types[1].id)?.type).toBe('HeroBlock');
    expect(names.get(types[2].id)).toMatchObject({ type: '_3dModel', one: '_3dModel', collection: '_3dModelCollection' });
  });

  it('a built-in name, a block type name or another type’s derived name gets Entry (Type for blocks), then a number', () => {
    const types = [
      entry('page'),
      entry('asset'),
      entry('foo'),
      entry('foo-filter'),
      entry('foo-block'),
      block('foo'),
      entry('sys'),
      block('rich-text'),
      entry('rich-text-block'),
    ];
    const names = nameTypes(types);
    const typeOf = (t: NamedType) => names.get(t.id)!.type;
    expect(types.map(typeOf)).toEqual([
      'PageEntry',
      'AssetEntry',
      'Foo',
      'FooFilterEntry',
      'FooBlockEntry',
      'FooBlock',
      'SysEntry',
      'RichTextBlock',
      'RichTextBlockEntry',
    ]);
    expect(names.get(types[0].id)).toMatchObject({ one: 'pageEntry', collection: 'pageEntryCollection' });
    const all = [...names.values()].flatMap((x) => [x.type, x.one, x.collection, x.filter, x.order, x.connection, x.edge]);
    expect(new Set(all).size).toBe(all.length);
  });

  it('a type added later never renames an older one', () => {
    const older = entry('foo-filter');
    const newer = entry('foo');
    expect(nameTypes([older]).get(older.id)?.type).toBe('FooFilter');
    const both = nameTypes([newer, older]);
    expect(both.get(older.id)?.type).toBe('FooFilter');
    expect(both.get(newer.id)?.type).toBe('FooEntry');
  });

  it('fields keep their names except those of the interfaces and the order enum, which get Field', () => {
    const e = entry('post', ['title', 'sys', 'position', 'sysField']);
    const b = block('hero', ['id', 'type', 'headline', 'children']);
    const names = nameTypes([e, b]);
    expect(Object.fromEntries(names.get(e.id)!.fields)).toEqual({ title: 'title', sys: 'sysField2', position: 'positionField', sysField: 'sysField' });
    expect(Object.fromEntries(names.get(b.id)!.fields)).toEqual({ id: 'idField', type: 'typeField', headline: 'headline', children: 'childrenField' });
  });
});
