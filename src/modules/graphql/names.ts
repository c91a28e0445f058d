/**
 * GraphQL names of a workspace's content model (docs/graphql.md "Names", D101, D102). Pure: the
 * same model always gets the same names, and adding a type or field never renames an older one.
 *
 * - A type's name is its slug in PascalCase (`blog-post` → `BlogPost`); a block type's gets
 *   `Block` appended (`hero` → `HeroBlock`). A slug starting with a digit gets `_` in front
 *   (`404-page` → `_404Page`, root fields `_404Page` and `_404PageCollection`).
 * - Root fields are the type name with its first letter lowercased (`blogPost`,
 *   `blogPostCollection`); input and enum types add `Filter`, `Order`, `Connection`, `Edge`.
 * - Collisions: types claim their names in the order they were created (their ids are
 *   time-ordered), block types first. A type whose name, root fields or derived names are taken
 *   (a built-in name such as `Page`, `Asset`, `Sys`, `Entry`, `Query`; a block type's name such
 *   as `FooBlock` for an entry type `foo-block`; another type's derived name) gets `Entry` (entry
 *   types) or `Type` (block types) appended before its own suffixes, then `2`, `3`, … until free.
 * - Fields keep their names (D31 names are valid GraphQL names), except names an interface or
 *   the order enum already uses: `sys` (and `position`, `sys_createdAt`, `sys_updatedAt`,
 *   `sys_publishedAt`, `sys_slug`, read by the order enum) on entry types, `id`, `type`,
 *   `position` and `children` on block types. Such a field gets `Field` appended (`sys` →
 *   `sysField`), then `2`, `3`, … if a field already has that name; fields claim names in the
 *   order they were created.
 */

/** Names the fixed part of the schema uses: no content type may take them. */
export const BUILT_IN_NAMES: ReadonlySet<string> = new Set([
  'Query',
  'Mutation',
  'Subscription',
  'String',
  'Int',
  'Float',
  'Boolean',
  'ID',
  'DateTime',
  'Date',
  'JSON',
  'Entry',
  'Block',
  'Sys',
  'Asset',
  'AssetTransform',
  'AssetFit',
  'AssetFormat',
  'AssetConnection',
  'AssetEdge',
  'AssetFilter',
  'Page',
  'PageConnection',
  'PageEdge',
  'Seo',
  'RichText',
  'PageInfo',
  'SysFilter',
  'StringFilter',
  'IntFilter',
  'FloatFilter',
  'BooleanFilter',
  'DateFilter',
  'DateTimeFilter',
  'IDFilter',
]);

/** Root fields of the fixed part of the schema. */
export const BUILT_IN_ROOT_FIELDS: ReadonlySet<string> = new Set(['page', 'pageCollection', 'asset', 'assetCollection']);

const ENTRY_RESERVED_FIELDS: ReadonlySet<string> = new Set(['sys', 'position', 'sys_createdAt', 'sys_updatedAt', 'sys_publishedAt', 'sys_slug']);
const BLOCK_RESERVED_FIELDS: ReadonlySet<string> = new Set(['id', 'type', 'position', 'children']);

/** `blog-post` → `BlogPost`; a leading digit gets `_` in front. */
export function pascalCase(slug: string): string {
  const name = slug
    .split(/[-_]+/)
    .filter((part) => part !== '')
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

/** `BlogPost` → `blogPost` (`_404Page` stays). */
export function lowerFirst(name: string): string {
  return name[0].toLowerCase() + name.slice(1);
}

/** What naming needs of a content type. */
export interface NamedType {
  id: string;
  slug: string;
  is_block: boolean;
  fields: readonly { id: string; name: string }[];
}

/** The names of one content type. */
export interface TypeNames {
  /** Object type name. */
  type: string;
  /** Entry types: the single-entry root field, its collection, and the derived input, enum and connection types. */
  one: string;
  collection: string;
  filter: string;
  order: string;
  connection: string;
  edge: string;
  /** GraphQL field name by content field name. */
  fields: ReadonlyMap<string, string>;
}

function derived(base: string, isBlock: boolean): { names: string[]; roots: string[] } {
  if (isBlock) return { names: [base], roots: [] };
  const root = lowerFirst(base);
  return { names: [base, `${base}Filter`, `${base}Order`, `${base}Connection`, `${base}Edge`], roots: [root, `${root}Collection`] };
}

function fieldNames(t: NamedType): Map<string, string> {
  const reserved = t.is_block ? BLOCK_RESERVED_FIELDS : ENTRY_RESERVED_FIELDS;
  const out = new Map<string, string>();
  const taken = new Set<string>([...reserved, ...t.fields.map((f) => f.name)]);
  for (const f of [...t.fields].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    if (!reserved.has(f.name)) {
      out.set(f.name, f.name);
      continue;
    }
    let name = `${f.name}Field`;
    for (let n = 2; taken.has(name); n += 1) name = `${f.name}Field${n}`;
    taken.add(name);
    out.set(f.name, name);
  }
  return out;
}

/**
 * The names of every type of a model, by content type id (rules above). Types are taken in
 * creation order (id), block types first.
 */
export function nameTypes(types: readonly NamedType[]): Map<string, TypeNames> {
  const takenTypes = new Set(BUILT_IN_NAMES);
  const takenRoots = new Set(BUILT_IN_ROOT_FIELDS);
  const ordered = [...types].sort((a, b) => (a.is_block === b.is_block ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.is_block ? -1 : 1));
  const out = new Map<string, TypeNames>();
  for (const t of ordered) {
    const pascal = pascalCase(t.slug);
    const first = t.is_block ? `${pascal}Block` : pascal;
    const suffix = t.is_block ? 'Type' : 'Entry';
    const free = (base: string) => {
      const d = derived(base, t.is_block);
      return d.names.every((n) => !takenTypes.has(n)) && d.roots.every((n) => !takenRoots.has(n));
    };
    let base = first;
    if (!free(base)) base = `${first}${suffix}`;
    for (let n = 2; !free(base); n += 1) base = `${first}${suffix}${n}`;
    const d = derived(base, t.is_block);
    d.names.forEach((n) => takenTypes.add(n));
    d.roots.forEach((n) => takenRoots.add(n));
    const root = lowerFirst(base);
    out.set(t.id, {
      type: base,
      one: root,
      collection: `${root}Collection`,
      filter: `${base}Filter`,
      order: `${base}Order`,
      connection: `${base}Connection`,
      edge: `${base}Edge`,
      fields: fieldNames(t),
    });
  }
  return out;
}
