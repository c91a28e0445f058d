/**
 * The GraphQL schema of a workspace, built from its content types (docs/graphql.md "Types",
 * "Root fields", "Names"; D101, D102): an object type per entry type implementing `Entry` and per
 * block type implementing `Block`, their fields typed by field type, a filter input and an order
 * enum per entry type, and the root fields. Built once per workspace and content model: the
 * schema is kept on the context (Context.caches.graphqlSchemas) under the delivery model's
 * fingerprint, which every request reads (src/modules/delivery/schema-cache.ts), so a model
 * changed on any instance is seen by the next request on every instance.
 */
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  lexicographicSortSchema,
  printSchema,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLOutputType,
} from 'graphql';
import type { Context } from '../../context.js';
import type { Field } from '../content-types/model.js';
import { fieldOptions } from '../content-types/model.js';
import { localizedValue } from '../delivery/localization.js';
import type { DeliverySchema, DeliveryType } from '../delivery/model.js';
import { loadDeliveryModel, type ModelReader } from '../delivery/schema-cache.js';
import type { BlockNode, EntryNode } from './context.js';
import { nameTypes, type TypeNames } from './names.js';
import { traceField } from '../read/source-map.js';
import { nodeOrigin, pathOf } from './source-maps.js';
import { assetCollectionRoot, assetRoot, entryCollectionRoot, entryRoot, pageCollectionRoot, pageRoot } from './resolvers.js';
import { fixedTypes, type FixedTypes, type ResolverContext } from './types.js';

type Node = EntryNode | BlockNode;

/** The GraphQL type of a field's values (D101); relations name their single target type, else `Entry`. */
function fieldType(field: Field, t: FixedTypes, objectOf: (slug: string) => GraphQLObjectType | undefined): GraphQLOutputType {
  switch (field.field_type) {
    case 'multi_select':
    case 'tags':
      return t.listOf(GraphQLString);
    case 'number':
      return GraphQLFloat;
    case 'integer':
      return GraphQLInt;
    case 'boolean':
      return GraphQLBoolean;
    case 'date':
      return t.Date;
    case 'datetime':
      return t.DateTime;
    case 'json':
      return t.JSON;
    case 'rich_text':
      return t.RichText;
    case 'media':
      return t.Asset;
    case 'media_list':
      return t.listOf(t.Asset);
    case 'relation':
    case 'relation_list': {
      const options = fieldOptions(field);
      const target = (options.length === 1 ? objectOf(options[0]) : undefined) ?? t.Entry;
      return field.field_type === 'relation' ? target : t.listOf(target);
    }
    default:
      return GraphQLString;
  }
}

/** The value of `field` on a node, shaped for its GraphQL type; relations and assets through the request's loaders. */
function fieldResolver(field: Field, target: DeliveryType | undefined): GraphQLFieldConfig<Node, ResolverContext>['resolve'] {
  const value = (n: Node) => localizedValue(field, n.data, n.translation);
  const ids = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const fits = (e: EntryNode | null | Error): e is EntryNode => e !== null && !(e instanceof Error) && (target === undefined || e.type.id === target.id);
  switch (field.field_type) {
    case 'multi_select':
    case 'tags':
      return (n) => ids(value(n));
    case 'rich_text':
      return (n) => {
        const v = value(n);
        return v === undefined || v === null ? null : { value: v, node: n, field };
      };
    case 'media':
      return (n, _a, c) => {
        const v = value(n);
        return typeof v === 'string' ? c.quire.media.load(v) : null;
      };
    case 'media_list':
      return async (n, _a, c) => (await c.quire.media.loadMany(ids(value(n)))).filter((m) => m !== null && !(m instanceof Error));
    case 'relation':
      return async (n, _a, c) => {
        const v = value(n);
        if (typeof v !== 'string') return null;
        const e = await c.quire.entries(n.locale).load(v);
        return fits(e) ? e : null;
      };
    case 'relation_list':
      return async (n, _a, c) => (await c.quire.entries(n.locale).loadMany(ids(value(n)))).filter(fits);
    default:
      return (n) => value(n) ?? null;
  }
}

/** Field types whose GraphQL value is the field's own strings (not an object resolved further: rich text, assets, relations). */
const SCALAR_TEXT: ReadonlySet<string> = new Set(['text', 'textarea', 'email', 'url', 'select', 'multi_select', 'tags', 'date', 'datetime', 'json']);

/**
 * A content field's resolver that, in a traced request (D140), traces the strings it returns at
 * the field's JSONPath with the read model's walker, as REST does.
 */
function traced(field: Field, resolve: GraphQLFieldConfig<Node, ResolverContext>['resolve']): GraphQLFieldConfig<Node, ResolverContext>['resolve'] {
  if (!SCALAR_TEXT.has(field.field_type) || resolve === undefined) return resolve;
  return (n, args, c, info) => {
    const v = resolve(n, args, c, info) as unknown;
    const trace = c.quire.trace;
    if (trace === null || v === null) return v;
    return traceField(trace, pathOf(info), nodeOrigin(c.quire, trace, n), field, n.translation, n.locale, v);
  };
}

/** The REST sort text of each order enum value: `<field>_ASC` for sortable fields, `sys_*`, `position_*` on orderable types. */
function orderValues(type: DeliveryType, names: TypeNames): Record<string, { value: string }> {
  const out: Record<string, { value: string }> = {};
  const add = (name: string, rest: string) => {
    out[`${name}_ASC`] = { value: `${rest}:asc` };
    out[`${name}_DESC`] = { value: `${rest}:desc` };
  };
  for (const f of type.fields) if (f.sortable) add(names.fields.get(f.name) ?? f.name, f.name);
  add('sys_createdAt', 'created_at');
  add('sys_updatedAt', 'updated_at');
  add('sys_publishedAt', 'published_at');
  add('sys_slug', 'slug');
  if (type.orderable) add('position', 'position');
  return out;
}

/** The filter input of a field type (the REST operators that apply to it, filters.ts). */
function filterOf(field: Field, t: FixedTypes): GraphQLInputObjectType | undefined {
  switch (field.field_type) {
    case 'text':
    case 'email':
    case 'url':
    case 'select':
      return t.filters.String;
    case 'number':
      return t.filters.Float;
    case 'integer':
      return t.filters.Int;
    case 'boolean':
      return t.filters.Boolean;
    case 'date':
      return t.filters.Date;
    case 'datetime':
      return t.filters.DateTime;
    case 'relation':
    case 'media':
      return t.filters.ID;
    default:
      return undefined;
  }
}

/** Builds the schema of one workspace's model (uncached; graphqlSchemaOf caches it). */
export function buildGraphqlSchema(model: DeliverySchema): GraphQLSchema {
  const names = nameTypes(model.types);
  const nameOf = (t: DeliveryType) => names.get(t.id)!;
  const t = fixedTypes((n) => names.get(n.type.id)?.type);
  const objects = new Map<string, GraphQLObjectType>();
  const objectOf = (slug: string) => {
    const type = model.bySlug.get(slug);
    return type && !type.is_block ? objects.get(type.id) : undefined;
  };
  const contentFields = (type: DeliveryType): GraphQLFieldConfigMap<Node, ResolverContext> => {
    const out: GraphQLFieldConfigMap<Node, ResolverContext> = {};
    for (const f of type.fields) {
      const options = f.field_type === 'relation' || f.field_type === 'relation_list' ? fieldOptions(f) : [];
      const target = options.length === 1 ? model.bySlug.get(options[0]) : undefined;
      out[nameOf(type).fields.get(f.name) ?? f.name] = {
        type: fieldType(f, t, objectOf),
        description: f.label,
        resolve: traced(f, fieldResolver(f, target && !target.is_block ? target : undefined)),
      };
    }
    return out;
  };
  for (const type of model.types) {
    const n = nameOf(type);
    const object = type.is_block
      ? new GraphQLObjectType<BlockNode, ResolverContext>({
          name: n.type,
          description: type.name,
          interfaces: [t.Block],
          fields: () => ({
            id: { type: t.nonNull(GraphQLID) },
            type: { type: t.nonNull(GraphQLString), resolve: (b) => b.type.slug },
            position: { type: t.nonNull(GraphQLInt) },
            children: { type: t.listOf(t.Block) },
            ...(contentFields(type) as GraphQLFieldConfigMap<BlockNode, ResolverContext>),
          }),
        })
      : new GraphQLObjectType<EntryNode, ResolverContext>({
          name: n.type,
          description: type.name,
          interfaces: [t.Entry],
          fields: () => ({ sys: { type: t.nonNull(t.Sys), resolve: (e) => e }, ...(contentFields(type) as GraphQLFieldConfigMap<EntryNode, ResolverContext>) }),
        });
    objects.set(type.id, object);
  }

  const query: GraphQLFieldConfigMap<unknown, ResolverContext> = {};
  const entryTypes = model.types.filter((type) => !type.is_block).sort((a, b) => (nameOf(a).one < nameOf(b).one ? -1 : 1));
  for (const type of entryTypes) {
    const n = nameOf(type);
    const object = objects.get(type.id)!;
    const filter: GraphQLInputObjectType = new GraphQLInputObjectType({
      name: n.filter,
      fields: () => {
        const fields: GraphQLInputFieldConfigMap = {};
        for (const f of type.fields) {
          const input = f.filterable ? filterOf(f, t) : undefined;
          if (input) fields[n.fields.get(f.name) ?? f.name] = { type: input };
        }
        return {
          ...fields,
          sys: { type: t.SysFilter },
          AND: { type: new GraphQLList(new GraphQLNonNull(filter)) },
          OR: { type: new GraphQLList(new GraphQLNonNull(filter)) },
        };
      },
    });
    const order = new GraphQLEnumType({ name: n.order, values: orderValues(type, n) });
    query[n.one] = {
      type: object,
      args: { slug: { type: GraphQLString }, id: { type: GraphQLID }, locale: { type: GraphQLString } },
      resolve: entryRoot(type.slug),
    };
    query[n.collection] = {
      type: t.nonNull(t.connection(n.type, object)),
      args: {
        first: { type: GraphQLInt, defaultValue: 10 },
        after: { type: GraphQLString },
        last: { type: GraphQLInt },
        before: { type: GraphQLString },
        locale: { type: GraphQLString },
        where: { type: filter },
        order: { type: new GraphQLList(new GraphQLNonNull(order)) },
      },
      resolve: entryCollectionRoot(type, n),
    };
  }
  query.page = { type: t.Page, args: { slug: { type: t.nonNull(GraphQLString) }, locale: { type: GraphQLString } }, resolve: pageRoot };
  query.pageCollection = {
    type: t.nonNull(t.PageConnection),
    args: { first: { type: GraphQLInt, defaultValue: 10 }, after: { type: GraphQLString }, locale: { type: GraphQLString } },
    resolve: pageCollectionRoot,
  };
  query.asset = { type: t.Asset, args: { id: { type: t.nonNull(GraphQLID) } }, resolve: assetRoot };
  query.assetCollection = {
    type: t.nonNull(t.AssetConnection),
    args: { first: { type: GraphQLInt, defaultValue: 10 }, after: { type: GraphQLString }, where: { type: t.AssetFilter } },
    resolve: assetCollectionRoot,
  };
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    // Every object type, so types no field names yet (a block type, an entry type only reached through `Entry`) are in the schema.
    types: [...objects.values()],
  });
}

/**
 * The workspace's GraphQL schema and delivery model for one request by `reader` (the actor
 * checked on this request, or a workspace id): the model from the delivery schema cache (no query when
 * the actor's revision was already verified, else one fingerprint query), the schema rebuilt only
 * when that fingerprint changed. Throws 404 NOT_FOUND when the workspace no longer exists.
 */
export async function graphqlSchemaOf(ctx: Context, reader: ModelReader): Promise<{ model: DeliverySchema; schema: GraphQLSchema }> {
  const workspaceId = typeof reader === 'string' ? reader : reader.workspaceId;
  const { schema: model, fingerprint } = await loadDeliveryModel(ctx, reader);
  const cached = ctx.caches.graphqlSchemas.get(workspaceId);
  if (cached && cached.fingerprint === fingerprint) return { model, schema: cached.schema };
  const schema = buildGraphqlSchema(model);
  ctx.caches.graphqlSchemas.set(workspaceId, { fingerprint, schema });
  return { model, schema };
}

/** The SDL of the workspace's schema (`GET /api/v1/public/graphql/schema.graphql`, `quire typegen --graphql`). */
export async function printWorkspaceSchema(ctx: Context, workspaceId: string): Promise<string> {
  // Types and fields sorted by name: the text changes only where the model does.
  return printSchema(lexicographicSortSchema((await graphqlSchemaOf(ctx, workspaceId)).schema));
}
