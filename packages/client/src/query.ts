/**
 * The types of a delivery list's query, checked against the content model `typegen` wrote
 * (docs/api.md "Field selection, sorting and filters"):
 *
 * - `fields` names only what the type has: its fields, the `_html` / `_text` renderings of its
 *   rich-text fields, and `<relation>.<name>` one level into a relation's target types; the
 *   entry's `data` then holds only what was asked for (a relation narrowed to `id`, `slug`,
 *   `type` and the names after the dot, D41).
 * - `filter` takes only the fields marked `filterable`, with the operators their field type
 *   accepts (`lt`…`gte` on ordered types, `contains` on text-like ones, no `in` on booleans)
 *   and values of the field's stored type (a select's options, ids for relations and media).
 * - `sort` is `<key>:asc|desc` over `created_at`, `updated_at`, `published_at`, `slug`, the
 *   fields marked `sortable`, and `position` on orderable types (D43).
 *
 * A type that typegen did not describe (or an older declarations file without the flags) keeps
 * the loose shapes: any field name, any filter, any sort string, `data` a plain record.
 */
import type { ContentTypeMap, DeliveredData, FieldsData, RichTextDocument } from './types.js';

/** One filter value: a string, number or boolean (sent as text). */
export type FilterScalar = string | number | boolean;
export type FilterOperator = 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte' | 'in' | 'contains' | 'exists';

/**
 * List filters on `filterable` fields: `{category: 'news'}` (equals), `{price: {gte: 10, lt: 20}}`,
 * `{tags: {in: ['a', 'b']}}`, `{cover: {exists: true}}`. Sent as `filter[field][op]=value`. The
 * loose shape, for content types typegen did not describe.
 */
export type Filters = Record<string, FilterScalar | readonly FilterScalar[] | Partial<Record<FilterOperator, FilterScalar | readonly FilterScalar[]>>>;

/** Field types whose values are ordered (`lt`, `lte`, `gt`, `gte`). */
type RangeFieldType = 'text' | 'email' | 'url' | 'select' | 'number' | 'integer' | 'date' | 'datetime';
/** Field types that take a case-insensitive substring (`contains`). */
type TextFieldType = 'text' | 'email' | 'url' | 'select';

/**
 * The filter of one field of type `FT` whose stored value is `V`: the value itself (equals), a
 * list (`in`, not for booleans), or an object of operators, each allowed only where the API
 * guide's table allows it.
 */
export type FieldFilter<FT extends string, V> =
  | V
  | (FT extends 'boolean' ? never : readonly V[])
  | ({ eq?: V; ne?: V; exists?: boolean } & (FT extends RangeFieldType ? { lt?: V; lte?: V; gt?: V; gte?: V } : unknown) &
      (FT extends 'boolean' ? unknown : { in?: readonly V[] }) &
      (FT extends TextFieldType ? { contains?: string } : unknown));

/** What typegen registered for content type `T` (never for a type it did not describe). */
type Described<T> = T extends keyof ContentTypeMap ? ContentTypeMap[T] : never;

/** `filter` of a list of type `T`: its filterable fields, typed; the loose Filters for other types. */
export type EntryFilter<T extends string> = T extends keyof ContentTypeMap
  ? Described<T> extends { filterable: infer F }
    ? [keyof F & keyof FieldsData<T>] extends [never]
      ? Record<string, never> // no filterable field: an empty object type would take any key
      : { [K in keyof F & keyof FieldsData<T>]?: FieldFilter<F[K] & string, NonNullable<FieldsData<T>[K]>> }
    : Filters
  : Filters;

/** The keys every list sorts by (D43). */
export type SystemSortKey = 'created_at' | 'updated_at' | 'published_at' | 'slug';

/** `sort` of a list of type `T`: `<key>:asc|desc` over its sortable keys; any string for other types. */
export type EntrySort<T extends string> = T extends keyof ContentTypeMap
  ? Described<T> extends { sortable: infer S }
    ? `${SystemSortKey | (S & string)}:${'asc' | 'desc'}`
    : string
  : string;

/** `sort` of page lists: navigation order (`position`, the default) or a system key (docs/pages.md). */
export type PageSort = `${'position' | SystemSortKey}:${'asc' | 'desc'}`;

/** The element of a list value, or the value. */
type Element<V> = V extends readonly (infer E)[] ? E : V;

/** What a resolved relation holds before its fields. */
interface RelatedHead {
  id: string;
  slug: string;
  type: string;
}

/**
 * `D` with the renderings of its rich-text fields: `<field>_html` and `<field>_text`, strings,
 * optional when the field is. A real field of that name wins (docs/api.md "The `fields` parameter").
 */
export type WithRenderings<D> = D & {
  [K in keyof D as K extends string ? (NonNullable<D[K]> extends RichTextDocument ? Exclude<`${K}_html` | `${K}_text`, keyof D> : never) : never]: string;
};

/** The relation fields of `D`: their value (or its elements) is a resolved entry. */
type RelationKey<D> = {
  [K in keyof D]-?: [Element<NonNullable<D[K]>>] extends [never] ? never : Element<NonNullable<D[K]>> extends RelatedHead ? K : never;
}[keyof D] &
  string;

/** The names one may ask for inside a related value: any target type's fields and renderings. */
type RelatedName<V> = Element<NonNullable<V>> extends infer R ? (R extends RelatedHead ? keyof WithRenderings<R> & string : never) : never;

/** The names `fields` accepts for delivered data `D`: fields, renderings, `<relation>.<name>`. */
export type FieldName<D> = (keyof WithRenderings<D> & string) | { [K in RelationKey<D>]: `${K}.${RelatedName<D[K]>}` }[RelationKey<D>];

/** The relation named before the dot of `N`. */
type Head<N> = N extends `${infer H}.${string}` ? H : never;
/** The names after `H.` in `N`. */
type After<N, H extends string> = N extends `${H}.${infer S}` ? S : never;

/** One related entry (or null) narrowed to its head and the names `S`. */
type NarrowRelated<R, S extends string> = R extends RelatedHead ? Pick<WithRenderings<R>, ('id' | 'slug' | 'type' | S) & keyof WithRenderings<R>> : R;
/** A relation value (one or a list, possibly null or absent) narrowed to the names `S`. */
type NarrowRelation<V, S extends string> = V extends readonly (infer E)[] ? NarrowRelated<E, S>[] : NarrowRelated<V, S>;

/** Shows an intersection as one object type in editors and messages. */
type Flat<T> = { [K in keyof T]: T[K] } & {};

/** Delivered data `D` with only the names `N` (whole fields, renderings, relations narrowed by `rel.name`). */
export type Selected<D, N extends string> = Flat<
  Pick<WithRenderings<D>, N & keyof WithRenderings<D>> & {
    [K in keyof D as K extends Exclude<Head<N>, N> ? K : never]: NarrowRelation<D[K], After<N, K & string>>;
  }
>;

/** `'a,b,c'` as `'a' | 'b' | 'c'`. */
type Split<S extends string> = S extends `${infer A},${infer B}` ? A | Split<B> : S;

/** What `fields` takes for a content type `T`: a list of its names (checked), or a comma-separated string. */
export type FieldSelection<T extends string> = readonly FieldName<DeliveredData<T>>[] | string;

/**
 * `data` of a delivered entry of type `T` read with `fields: S`: everything when `S` is absent
 * (never), only the names asked for when `S` is a list or a literal string, and every name
 * optional when `S` is a string only known at run time. Types typegen did not describe keep
 * their plain record.
 */
export type SelectedData<T extends string, S> = T extends keyof ContentTypeMap
  ? [S] extends [never]
    ? DeliveredData<T>
    : S extends readonly (infer N)[]
      ? Selected<DeliveredData<T>, N & string>
      : S extends string
        ? string extends S
          ? Partial<WithRenderings<DeliveredData<T>>>
          : Selected<DeliveredData<T>, Split<S>>
        : DeliveredData<T>
  : DeliveredData<T>;
