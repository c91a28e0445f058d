/**
 * The fixed part of every workspace's GraphQL schema (docs/graphql.md "Types", D101): the scalars
 * `DateTime`, `Date` and `JSON`, the `Entry` and `Block` interfaces, `Sys`, `Asset` with
 * `url(transform)`, `RichText`, `Page`, `Seo`, `PageInfo`, the page and asset connections and the
 * filter inputs. Built anew for each schema (fixedTypes), since the interfaces resolve to that
 * schema's own object types.
 */
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLString,
  Kind,
  type GraphQLFieldResolver,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type ValueNode,
} from 'graphql';
import { richTextTargets, richTextToHtml, richTextToText } from '../richtext/render.js';
import { localizedValue, valueLocale } from '../delivery/localization.js';
import { mediaBaseUrl } from '../media/locations.js';
import { RASTER_IMAGE_TYPES, SVG_MIME, PDF_MIME, type DeliveryMedia, type MediaKind } from '../media/model.js';
import { FITS, FORMATS, parseTransform } from '../media/transform.js';
import { entryIsFallback, type BlockNode, type EntryNode, type GraphqlRequest, type PageNode } from './context.js';
import { toGraphqlError } from './errors.js';
import type { Field } from '../content-types/model.js';
import { objectColumn } from '../delivery/relations.js';
import type { Seo } from '../pages/model.js';
import { pickSeo, SEO_TRACED_FIELDS } from '../pages/seo.js';
import { ASSET_FIELDS, assetOrigin, pageOrigin, traceField, traceValue } from '../read/source-map.js';
import { nodeOrigin, pathOf } from './source-maps.js';

const nonNull = <T extends GraphQLOutputType | GraphQLInputType>(t: T) => new GraphQLNonNull(t);
const listOf = <T extends GraphQLOutputType>(t: T) => new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(t)));

function literalValue(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.BOOLEAN:
      return node.value;
    case Kind.LIST:
      return node.values.map(literalValue);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literalValue(f.value)]));
    default:
      return null;
  }
}

/** A scalar carried as text (dates as stored); inputs are checked where they are used (filters: BAD_USER_INPUT). */
function textScalar(name: string, description: string): GraphQLScalarType {
  return new GraphQLScalarType({ name, description, serialize: (v) => v, parseValue: (v) => v, parseLiteral: literalValue });
}

/** The GraphQL context Yoga hands resolvers: Quire's request state under `quire`. */
export interface ResolverContext {
  quire: GraphqlRequest;
}

/** The `MediaKind` of a MIME type, as the file route decides whether it transforms. */
function mediaKindOf(mime: string): MediaKind {
  if (mime === SVG_MIME) return 'svg';
  if (RASTER_IMAGE_TYPES[mime]) return 'image';
  if (mime === PDF_MIME) return 'pdf';
  return 'video';
}

interface TransformArgs {
  width?: number | null;
  height?: number | null;
  fit?: string | null;
  format?: string | null;
  quality?: number | null;
}

/**
 * An asset's URL with the file route's transform parameters (`w`, `h`, `fit`, `fm`, `q`),
 * checked as that route checks them (400 → BAD_USER_INPUT). A remote original (an imported asset
 * not stored here) keeps its URL: only stored files are transformed.
 */
function assetUrl(q: GraphqlRequest, asset: DeliveryMedia, t: TransformArgs | null | undefined): string {
  if (!t) return asset.url;
  const query = { w: t.width ?? undefined, h: t.height ?? undefined, fit: t.fit ?? undefined, fm: t.format ?? undefined, q: t.quality ?? undefined };
  try {
    parseTransform(query, mediaKindOf(asset.mime_type), asset.mime_type);
  } catch (err) {
    throw toGraphqlError(err, q.ctx.log);
  }
  if (!asset.url.startsWith(`${mediaBaseUrl(q.ctx.config)}/`)) return asset.url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const text = params.toString();
  return text === '' ? asset.url : `${asset.url}?${text}`;
}

/** A rich-text value as resolvers see it: the document and the locale its links resolve in. */
export interface RichTextValue {
  value: unknown;
  node: EntryNode | BlockNode;
  /** The rich_text field it is the value of (source maps, D140). */
  field: Field;
}

/** A rich-text value or rendering traced at the field's JSONPath in a traced request (D140), else as it is. */
function tracedRichText(rt: RichTextValue, value: unknown, render: 'html' | 'text' | null, c: ResolverContext, info: GraphQLResolveInfo): unknown {
  const trace = c.quire.trace;
  if (trace === null) return value;
  return traceField(trace, pathOf(info), nodeOrigin(c.quire, trace, rt.node), rt.field, rt.node.translation, rt.node.locale, value, render);
}

/** An asset's text field traced in a traced request (D140), else as it is. */
function assetText(key: keyof typeof ASSET_FIELDS): GraphQLFieldResolver<DeliveryMedia, ResolverContext> {
  return (a, _args, c, info) => {
    const v = a[key];
    const trace = c.quire.trace;
    if (trace === null || v === null) return v;
    return traceValue(trace, pathOf(info), assetOrigin(trace, a), ASSET_FIELDS[key], trace.defaultLocale, v);
  };
}

/** What the `Seo` type resolves from: the delivered SEO object and its page. */
interface SeoValue {
  seo: Seo;
  page: PageNode;
}

/** An SEO key of a page, traced as field `seo.<key>` in the locale it came from in a traced request (D140). */
function seoValue(key: keyof Seo): GraphQLFieldResolver<SeoValue, ResolverContext> {
  const field = SEO_TRACED_FIELDS.find((f) => f.name === key)!;
  return (s, _args, c, info) => {
    const v = key === 'keywords' ? (s.seo.keywords ?? []) : (s.seo[key] ?? null);
    const trace = c.quire.trace;
    if (trace === null || v === null) return v;
    const row = s.page.row;
    const translation = row.tr_seo === null || row.tr_seo === undefined ? null : pickSeo(objectColumn(row.tr_seo));
    const locale = valueLocale({ name: key, localizable: true }, translation, s.page.locale, trace.defaultLocale);
    return traceValue(trace, pathOf(info), pageOrigin(trace, s.page.page), { name: `seo.${key}`, field_type: field.field_type }, locale, v);
  };
}

/** The HTML of a rich-text value, its linked entries and assets loaded by this request's loaders (REST renders them alike). */
async function richTextHtml(q: GraphqlRequest, rt: RichTextValue): Promise<string> {
  const targets = { entries: new Set<string>(), media: new Set<string>() };
  richTextTargets(rt.value, targets);
  const [entries, media] = await Promise.all([q.entries(rt.node.locale).loadMany([...targets.entries]), q.media.loadMany([...targets.media])]);
  const entryById = new Map<string, EntryNode>();
  for (const e of entries) if (e && !(e instanceof Error)) entryById.set(e.id, e);
  const mediaById = new Map<string, DeliveryMedia>();
  for (const m of media) if (m && !(m instanceof Error)) mediaById.set(m.id, m);
  const html = richTextToHtml(rt.value, {
    entry(id) {
      const e = entryById.get(id);
      if (!e) return undefined;
      const field = e.type.display_field ? e.type.fieldsByName.get(e.type.display_field) : undefined;
      const value = field ? localizedValue(field, e.data, e.translation) : undefined;
      const display = typeof value === 'string' || typeof value === 'number' ? String(value) : null;
      return { id: e.id, type: e.type.slug, slug: e.slug, display: display || null };
    },
    asset: (id) => mediaById.get(id),
  });
  return html ?? '';
}

/** The fixed types of one schema; `typeNameOf` names the object type of an entry or block node. */
export function fixedTypes(typeNameOf: (node: EntryNode | BlockNode) => string | undefined) {
  const DateTime = textScalar('DateTime', 'An ISO 8601 date-time as stored (UTC with milliseconds; datetime fields keep their offset).');
  const DateScalar = textScalar('Date', 'A calendar date, YYYY-MM-DD.');
  const JSONScalar = textScalar('JSON', 'Any JSON value.');

  const Sys = new GraphQLObjectType<EntryNode, ResolverContext>({
    name: 'Sys',
    fields: {
      id: { type: nonNull(GraphQLID), resolve: (n) => n.row.id },
      slug: { type: nonNull(GraphQLString), resolve: (n) => n.row.slug },
      contentType: { type: nonNull(GraphQLString), resolve: (n) => n.type.slug },
      status: { type: nonNull(GraphQLString), resolve: (n) => n.row.status },
      locale: { type: nonNull(GraphQLString), resolve: (n) => n.locale.locale },
      isFallback: { type: nonNull(GraphQLBoolean), resolve: (n) => entryIsFallback(n) },
      createdAt: { type: nonNull(DateTime), resolve: (n) => n.row.created_at },
      updatedAt: { type: nonNull(DateTime), resolve: (n) => n.row.updated_at },
      publishedAt: { type: DateTime, resolve: (n) => n.row.published_at },
      publishedVersion: {
        type: GraphQLInt,
        resolve: (n) => (n.row.published_version === null || n.row.published_version === undefined ? null : Number(n.row.published_version)),
      },
    },
  });

  const Entry = new GraphQLInterfaceType({
    name: 'Entry',
    fields: { sys: { type: nonNull(Sys) } },
    resolveType: (n: EntryNode) => typeNameOf(n),
  });

  const Block: GraphQLInterfaceType = new GraphQLInterfaceType({
    name: 'Block',
    fields: () => ({
      id: { type: nonNull(GraphQLID) },
      type: { type: nonNull(GraphQLString) },
      position: { type: nonNull(GraphQLInt) },
      children: { type: listOf(Block) },
    }),
    resolveType: (n: BlockNode) => typeNameOf(n),
  });

  const AssetTransform = new GraphQLInputObjectType({
    name: 'AssetTransform',
    description: 'The image transform of the media file route: width and height 1 to 4,000 pixels, fit, format, quality 1 to 100.',
    fields: {
      width: { type: GraphQLInt },
      height: { type: GraphQLInt },
      fit: { type: new GraphQLEnumType({ name: 'AssetFit', values: Object.fromEntries(FITS.map((f) => [f, { value: f }])) }) },
      format: { type: new GraphQLEnumType({ name: 'AssetFormat', values: Object.fromEntries(FORMATS.map((f) => [f, { value: f }])) }) },
      quality: { type: GraphQLInt },
    },
  });

  const Asset = new GraphQLObjectType<DeliveryMedia, ResolverContext>({
    name: 'Asset',
    fields: {
      id: { type: nonNull(GraphQLID) },
      url: {
        type: nonNull(GraphQLString),
        args: { transform: { type: AssetTransform } },
        resolve: (a, args: { transform?: TransformArgs | null }, c) => assetUrl(c.quire, a, args.transform),
      },
      mimeType: { type: nonNull(GraphQLString), resolve: (a) => a.mime_type },
      width: { type: GraphQLInt },
      height: { type: GraphQLInt },
      altText: { type: GraphQLString, resolve: assetText('alt_text') },
      title: { type: GraphQLString, resolve: assetText('title') },
      description: { type: GraphQLString, resolve: assetText('description') },
      focalX: { type: GraphQLFloat, resolve: (a) => a.focal_x },
      focalY: { type: GraphQLFloat, resolve: (a) => a.focal_y },
    },
  });

  const RichText = new GraphQLObjectType<RichTextValue, ResolverContext>({
    name: 'RichText',
    fields: {
      json: { type: nonNull(JSONScalar), resolve: (rt, _args, c, info) => tracedRichText(rt, rt.value, null, c, info) },
      html: { type: nonNull(GraphQLString), resolve: async (rt, _args, c, info) => tracedRichText(rt, await richTextHtml(c.quire, rt), 'html', c, info) },
      text: { type: nonNull(GraphQLString), resolve: (rt, _args, c, info) => tracedRichText(rt, richTextToText(rt.value) ?? '', 'text', c, info) },
    },
  });

  const SeoType = new GraphQLObjectType<SeoValue, ResolverContext>({
    name: 'Seo',
    fields: {
      title: { type: GraphQLString, resolve: seoValue('title') },
      description: { type: GraphQLString, resolve: seoValue('description') },
      keywords: { type: listOf(GraphQLString), resolve: seoValue('keywords') },
      ogImage: { type: GraphQLString, resolve: seoValue('og_image') },
      canonical: { type: GraphQLString, resolve: seoValue('canonical') },
    },
  });

  const pageBlocks = (p: PageNode, c: ResolverContext) => {
    // A block's Studio URL names its page (source maps, D140).
    c.quire.pageSlugs.set(p.page.id, p.page.slug);
    return c.quire.blocks(p.locale).load(p.page.id);
  };
  const Page = new GraphQLObjectType<PageNode, ResolverContext>({
    name: 'Page',
    fields: {
      id: { type: nonNull(GraphQLID), resolve: (p) => p.page.id },
      slug: { type: nonNull(GraphQLString), resolve: (p) => p.page.slug },
      position: { type: nonNull(GraphQLInt), resolve: (p) => Number(p.page.position) },
      status: { type: nonNull(GraphQLString), resolve: (p) => p.page.status },
      publishedAt: { type: DateTime, resolve: (p) => p.page.published_at },
      locale: { type: nonNull(GraphQLString), resolve: (p) => p.locale.locale },
      isFallback: {
        type: nonNull(GraphQLBoolean),
        // docs/pages.md "Translations and localization" rule 4: no SEO nor block translation in the locale.
        resolve: async (p, _args, c) => {
          if (p.locale.isDefault || p.row.tr_id !== null) return false;
          return !(p.blocksTranslated ?? (await pageBlocks(p, c)).translated);
        },
      },
      seo: { type: nonNull(SeoType), resolve: (p): SeoValue => ({ seo: p.page.seo, page: p }) },
      blocks: { type: listOf(Block), resolve: async (p, _args, c) => (await pageBlocks(p, c)).roots },
    },
  });

  const PageInfo = new GraphQLObjectType({
    name: 'PageInfo',
    fields: {
      hasNextPage: { type: nonNull(GraphQLBoolean) },
      hasPreviousPage: { type: nonNull(GraphQLBoolean) },
      startCursor: { type: GraphQLString },
      endCursor: { type: GraphQLString },
    },
  });

  /** A Relay connection type of `node` (the values are built by connection() in resolvers.ts). */
  const connection = (name: string, node: GraphQLOutputType & GraphQLObjectType) =>
    new GraphQLObjectType({
      name: `${name}Connection`,
      fields: {
        edges: {
          type: listOf(new GraphQLObjectType({ name: `${name}Edge`, fields: { cursor: { type: nonNull(GraphQLString) }, node: { type: nonNull(node) } } })),
        },
        nodes: { type: listOf(node) },
        pageInfo: { type: nonNull(PageInfo) },
        totalCount: { type: nonNull(GraphQLInt), resolve: (c: { totalCount: () => Promise<number> }) => c.totalCount() },
      },
    });

  const filterInput = (name: string, scalar: GraphQLInputType, ops: readonly string[]) =>
    new GraphQLInputObjectType({
      name,
      fields: Object.fromEntries(
        ops.map((op) => [op, { type: op === 'in' ? new GraphQLList(new GraphQLNonNull(scalar)) : op === 'exists' ? GraphQLBoolean : scalar }]),
      ),
    });
  const ALL = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'contains', 'exists'];
  const RANGE = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'exists'];
  const filters = {
    String: filterInput('StringFilter', GraphQLString, ALL),
    Int: filterInput('IntFilter', GraphQLInt, RANGE),
    Float: filterInput('FloatFilter', GraphQLFloat, RANGE),
    Boolean: filterInput('BooleanFilter', GraphQLBoolean, ['eq', 'ne', 'exists']),
    Date: filterInput('DateFilter', DateScalar, RANGE),
    DateTime: filterInput('DateTimeFilter', DateTime, RANGE),
    ID: filterInput('IDFilter', GraphQLID, ['eq', 'ne', 'in', 'exists']),
  };
  const SysFilter = new GraphQLInputObjectType({
    name: 'SysFilter',
    fields: {
      slug: { type: filters.String },
      publishedAt: { type: filters.DateTime },
      updatedAt: { type: filters.DateTime },
      createdAt: { type: filters.DateTime },
    },
  });
  const AssetFilter = new GraphQLInputObjectType({ name: 'AssetFilter', fields: { mimeType: { type: GraphQLString }, folder: { type: GraphQLString } } });

  return {
    DateTime,
    Date: DateScalar,
    JSON: JSONScalar,
    Sys,
    Entry,
    Block,
    Asset,
    RichText,
    Seo: SeoType,
    Page,
    PageInfo,
    PageConnection: connection('Page', Page),
    AssetConnection: connection('Asset', Asset),
    AssetFilter,
    filters,
    SysFilter,
    connection,
    nonNull,
    listOf,
  };
}

export type FixedTypes = ReturnType<typeof fixedTypes>;
