/**
 * Contentful landing pages → Quire pages with block trees (issue 3 item 4; docs/cli.md "The `quire`
 * command line" (D61)).
 * Pure functions over the export and the schema plan; page-writer.ts writes the result through
 * the page operations.
 *
 * | Contentful (the page type: `page`, or the one named by `--pages-type ID`) | Quire |
 * |---|---|
 * | the page content type | not a content type: its entries become pages |
 * | its `slug` field (default locale) | the page slug (else the display field's value, else the id; `-2`, `-3` … on collisions) |
 * | a single entry link to an SEO entry (a field `seo`, or one restricted to an `seo` type) | `seo` from the linked entry's `title`, `description`, `keywords`, `image`/`ogImage` (asset URL), `canonical`; its other locales → `seo_translations` |
 * | each array-of-entry-links field, in field order | root blocks, in link order |
 * | the content types of the entries those fields link | block types (`is_block` true) |
 * | the linked entries | blocks (one per link, so an entry shared by pages becomes a block on each); their localized values → block translations |
 * | the page entry's state (states.ts) | the page's status: draft, published (also with unpublished changes, unless `--changed-as draft`), archived |
 * | a draft (or, with `--changed-as draft`, changed) component entry on a published page | a block of the working copy only: the published version is written without it |
 * | an archived component entry | no block (warning) |
 *
 * Entries of block types are not imported as entries (block types hold no entries): an entry of
 * a block type that no page links is skipped with a warning, and links from entries to pages or
 * to those component entries are dropped with the importer's usual warning (Quire relations point
 * at entries). Other fields of the page type (e.g. a single link to a topic) have no place on a
 * Quire page and are reported once per field. A block type's own links to other components are
 * not turned into child blocks: blocks are imported one level deep, as the export models them.
 *
 * Ids are derived from the workspace and the Contentful ids (`page:<id>`, `block:<page>:<field>:
 * <index>:<entry>`), so a second import finds the same pages and blocks and changes nothing.
 */
import { derivedId } from '../../../lib/ids.js';
import { isPlainObject } from '../../../lib/json.js';
import { slugify } from '../../../lib/slugs.js';
import type { EntryData } from '../../entries/model.js';
import type { SeoOverrides } from '../../pages/model.js';
import { planEntry, type LocaleMapping } from './content-mapping.js';
import type { CfContentType, CfEntry, CfField } from './export.js';
import type { PlannedContentType, SchemaPlan } from './schema-mapping.js';
import { cfState, type CfState } from './states.js';

/** The Contentful content type imported as pages when `--pages-type` is not given. */
export const DEFAULT_PAGE_TYPE = 'page';

/** How the page type of an export maps to Quire pages (decided before the schema is written). */
export interface PageModel {
  pageType: CfContentType;
  /** Array-of-entry-link fields of the page type, in field order: the root blocks. */
  blockFields: CfField[];
  /** The single entry link to the page's SEO entry, if the type has one. */
  seoField: CfField | null;
  /** Contentful ids of the content types imported as block types. */
  blockTypeIds: Set<string>;
  /** Contentful ids of entries that are not imported as entries (pages and block-type entries). */
  notEntries: Set<string>;
  /** Contentful ids of the page entries. */
  pageIds: Set<string>;
  warnings: string[];
}

export interface PlannedBlock {
  id: string;
  /** The Contentful entry the block is made from. */
  cfEntryId: string;
  typeSlug: string;
  data: EntryData;
  /** Translations by workspace locale (localizable fields only). */
  translations: Record<string, EntryData>;
  /** The component entry's publishing state: a draft one is kept out of the published page. */
  state: CfState;
}

export interface PlannedPage {
  cfId: string;
  id: string;
  /** The page entry's publishing state (states.ts). */
  state: CfState;
  seo: SeoOverrides;
  seoTranslations: Record<string, SeoOverrides>;
  /** Root blocks in order. */
  blocks: PlannedBlock[];
}

export const pageIdFor = (workspaceId: string, cfId: string) => derivedId(workspaceId, `page:${cfId}`);

function entryLinkId(value: unknown): string | undefined {
  if (!isPlainObject(value) || !isPlainObject(value.sys)) return undefined;
  const sys = value.sys;
  return sys.type === 'Link' && sys.linkType === 'Entry' && typeof sys.id === 'string' ? sys.id : undefined;
}

function isEntryLinkArray(f: CfField): boolean {
  return f.type === 'Array' && f.items?.type === 'Link' && f.items.linkType === 'Entry';
}

function linkTypes(f: CfField): string[] {
  const validations = (f.type === 'Array' ? f.items?.validations : f.validations) ?? [];
  return validations.flatMap((v) => (Array.isArray(v.linkContentType) ? v.linkContentType.filter((x): x is string => typeof x === 'string') : []));
}

/**
 * What the page mapping reads of an export: its content types and its entries by Contentful id
 * or type, without holding them all (export-source.ts entryCatalog).
 */
export interface EntryCatalog {
  readonly contentTypes: readonly CfContentType[];
  /** Number of entries; `idAt`/`typeAt` give each one's Contentful id and content type id in export order. */
  readonly count: number;
  idAt(i: number): string;
  typeAt(i: number): string;
  /** Content type id of the entry with Contentful id `cfId` (the last of that id), or undefined. */
  typeOf(cfId: string): string | undefined;
  /** The entry with Contentful id `cfId` (the last of that id), or undefined. */
  get(cfId: string): CfEntry | undefined;
  /** The entries of content type `typeId`, in export order (may be iterated again). */
  ofType(typeId: string): Iterable<CfEntry>;
}

/**
 * Finds the page type (`pageTypeId`) and decides the page model. Returns null when the export has
 * no such type (the import then has no pages); `explicit` turns that into an error message.
 */
export function planPageModel(catalog: EntryCatalog, pageTypeId: string): PageModel | null {
  const pageType = catalog.contentTypes.find((ct) => ct.sys.id === pageTypeId);
  if (!pageType) return null;
  const warnings: string[] = [];
  const blockFields = pageType.fields.filter((f) => isEntryLinkArray(f) && !f.disabled && !f.omitted);
  const seoField =
    pageType.fields.find((f) => f.type === 'Link' && f.linkType === 'Entry' && f.id === 'seo') ??
    pageType.fields.find((f) => f.type === 'Link' && f.linkType === 'Entry' && linkTypes(f).some((t) => t.toLowerCase() === 'seo')) ??
    null;
  const blockTypeIds = new Set<string>();
  const pageIds = new Set<string>();
  const linkedFromPages = new Set<string | undefined>();
  const filledFields = new Set<string>();
  for (const page of catalog.ofType(pageType.sys.id)) {
    pageIds.add(page.sys.id);
    for (const f of pageType.fields) if (Object.keys(page.fields[f.id] ?? {}).length > 0) filledFields.add(f.id);
    for (const f of blockFields) {
      for (const value of Object.values(page.fields[f.id] ?? {})) {
        if (!Array.isArray(value)) continue;
        for (const link of value) {
          const target = entryLinkId(link);
          linkedFromPages.add(target);
          const targetType = catalog.typeOf(target ?? '');
          if (targetType !== undefined && targetType !== pageType.sys.id) blockTypeIds.add(targetType);
        }
      }
    }
  }
  const notEntries = new Set<string>(pageIds);
  for (let i = 0; i < catalog.count; i++) {
    const type = catalog.typeAt(i);
    if (!blockTypeIds.has(type)) continue;
    const id = catalog.idAt(i);
    notEntries.add(id);
    if (!linkedFromPages.has(id)) {
      warnings.push(`entry '${id}' is of block type '${type}' but no page uses it; it is skipped (block types hold no entries)`);
    }
  }
  const mapped = new Set([...blockFields.map((f) => f.id), ...(seoField ? [seoField.id] : []), 'slug', pageType.displayField ?? '']);
  for (const f of pageType.fields) {
    if (mapped.has(f.id) || f.disabled || f.omitted) continue;
    if (filledFields.has(f.id)) {
      warnings.push(
        `page field '${f.id}' (${f.type === 'Array' ? `Array<${f.items?.type ?? '?'}>` : f.type}) has no place on a Quire page and is not imported`,
      );
    }
  }
  return { pageType, blockFields, seoField, blockTypeIds, notEntries, pageIds, warnings };
}

/**
 * The schema plan as pages need it: without the page type, with the block types marked
 * `is_block`. Other types are left as planned.
 */
export function applyPageModel(schema: SchemaPlan, model: PageModel): SchemaPlan {
  return {
    ...schema,
    contentTypes: schema.contentTypes
      .filter((ct) => ct.cfId !== model.pageType.sys.id)
      .map((ct): PlannedContentType => (model.blockTypeIds.has(ct.cfId) ? { ...ct, is_block: true } : ct)),
  };
}

/** The Quire locale of an export locale (null: left out), as for entries. */
function targetLocale(code: string, locales: LocaleMapping): string | null {
  if (code === locales.exportDefault) return locales.workspaceDefault;
  if (code === locales.workspaceDefault) return null;
  return locales.others.includes(code) ? code : null;
}

function oneLine(text: unknown, max: number): string | undefined {
  if (typeof text !== 'string') return undefined;
  const clean = text
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .trim()
    .slice(0, max);
  return clean || undefined;
}

/** SEO values of one locale of an SEO entry. */
function seoValues(seo: CfEntry, code: string, assetUrl: (cfId: string) => string | undefined): SeoOverrides {
  const pick = (...ids: string[]) => ids.map((id) => seo.fields[id]?.[code]).find((v) => v !== undefined && v !== null);
  const out: SeoOverrides = {};
  const title = oneLine(pick('title', 'metaTitle'), 300);
  if (title) out.title = title;
  const description = pick('description', 'metaDescription');
  if (typeof description === 'string' && description.trim()) out.description = description.trim().slice(0, 1000);
  const keywords = pick('keywords');
  const list = Array.isArray(keywords) ? keywords : typeof keywords === 'string' ? keywords.split(',') : [];
  const clean = [...new Set(list.map((k) => oneLine(k, 100)).filter((k): k is string => k !== undefined))].slice(0, 50);
  if (clean.length) out.keywords = clean;
  const image = pick('image', 'ogImage', 'shareImage');
  const imageUrl = isPlainObject(image) && isPlainObject(image.sys) && typeof image.sys.id === 'string' ? assetUrl(image.sys.id) : undefined;
  if (imageUrl) out.og_image = imageUrl;
  const canonical = pick('canonical', 'canonicalUrl');
  if (typeof canonical === 'string' && /^https?:\/\/\S+$/.test(canonical.trim())) out.canonical = canonical.trim();
  return out;
}

export interface PagePlanContext {
  workspaceId: string;
  locales: LocaleMapping;
  /** The schema plan after applyPageModel (block types included). */
  schema: SchemaPlan;
  /** Quire id of an imported entry / asset by Contentful id (undefined when not imported). */
  entryId(cfId: string): string | undefined;
  assetId(cfId: string): string | undefined;
  /** Absolute URL of an imported asset by Contentful id. */
  assetUrl(cfId: string): string | undefined;
}

/** What the pages step keeps of every page across batches: its id, wanted slug and state. */
export interface PageOutline {
  id: string;
  /** The slug the page asks for (pageBaseSlug), before collisions are resolved. */
  baseSlug: string;
  state: CfState;
}

/**
 * A light pass over the export's pages in export order: each one's outline, none of its blocks or
 * SEO (slug assignment needs every page's wanted slug before any page is written).
 */
export function outlinePages(catalog: EntryCatalog, model: PageModel, pc: Pick<PagePlanContext, 'workspaceId' | 'locales'>): PageOutline[] {
  const out: PageOutline[] = [];
  for (const entry of catalog.ofType(model.pageType.sys.id)) {
    out.push({
      id: pageIdFor(pc.workspaceId, entry.sys.id),
      baseSlug: pageBaseSlug(model.pageType, entry, pc.locales.exportDefault),
      state: cfState(entry.sys),
    });
  }
  return out;
}

/**
 * The size of planPageBatches' batches: a batch closes once it holds `pages` pages or at least
 * `blocks` blocks, so it holds fewer than `blocks` blocks besides those of its last page.
 */
export interface PageBatchLimits {
  pages: number;
  blocks: number;
}

/**
 * Plans the export's pages in export order (the navigation order), a batch at a time (see
 * PageBatchLimits). Each batch comes with the warnings its planning gave, in page order; the
 * batches together give what planning every page at once would. Only the yielded batch is held:
 * page entries are read in export order, their components and SEO entries by id.
 */
export function* planPageBatches(
  catalog: EntryCatalog,
  model: PageModel,
  pc: PagePlanContext,
  limits: PageBatchLimits,
): Generator<{ pages: PlannedPage[]; warnings: string[] }> {
  const types = new Map(pc.schema.contentTypes.map((ct) => [ct.cfId, ct]));
  let batch = { pages: [] as PlannedPage[], warnings: [] as string[] };
  let blocks = 0;
  for (const entry of catalog.ofType(model.pageType.sys.id)) {
    const page = planPage(entry, catalog, model, pc, types, batch.warnings);
    batch.pages.push(page);
    blocks += page.blocks.length;
    if (batch.pages.length >= limits.pages || blocks >= limits.blocks) {
      yield batch;
      batch = { pages: [], warnings: [] };
      blocks = 0;
    }
  }
  if (batch.pages.length) yield batch;
}

/** Plans one page entry with its blocks and SEO; warnings are added to `warnings`. */
function planPage(
  entry: CfEntry,
  catalog: EntryCatalog,
  model: PageModel,
  pc: PagePlanContext,
  types: ReadonlyMap<string, PlannedContentType>,
  warnings: string[],
): PlannedPage {
  const links = { entry: pc.entryId, asset: pc.assetId };
  const exportDefault = pc.locales.exportDefault;
  const blocks: PlannedBlock[] = [];
  for (const f of model.blockFields) {
    const value = entry.fields[f.id]?.[exportDefault];
    if (!Array.isArray(value)) continue;
    value.forEach((link, index) => {
      const cfTarget = entryLinkId(link);
      const target = cfTarget ? catalog.get(cfTarget) : undefined;
      const ct = target ? types.get(target.sys.contentType.sys.id) : undefined;
      if (!target || !ct || !ct.is_block) {
        warnings.push(
          `page '${entry.sys.id}' (${f.id}.${index}) links ${cfTarget ? `entry '${cfTarget}'` : 'something'} that is not in the export; the block is left out`,
        );
        return;
      }
      if (cfState(target.sys) === 'archived') {
        // Archived in Contentful: no API shows it on the page, so the block is not made.
        warnings.push(`page '${entry.sys.id}' (${f.id}.${index}) links entry '${target.sys.id}', which is archived; the block is left out`);
        return;
      }
      const planned = planEntry(target, ct, pc.workspaceId, pc.locales, links, warnings);
      blocks.push({
        state: planned.state,
        id: derivedId(pc.workspaceId, `block:${entry.sys.id}:${f.id}:${index}:${target.sys.id}`),
        cfEntryId: target.sys.id,
        typeSlug: ct.slug,
        data: planned.data,
        translations: planned.translations,
      });
    });
  }
  let seo: SeoOverrides = {};
  const seoTranslations: Record<string, SeoOverrides> = {};
  const seoLink = model.seoField ? entryLinkId(entry.fields[model.seoField.id]?.[exportDefault]) : undefined;
  const seoEntry = seoLink ? catalog.get(seoLink) : undefined;
  if (seoEntry) {
    const codes = new Set(Object.values(seoEntry.fields).flatMap((v) => Object.keys(v ?? {})));
    for (const code of codes) {
      const locale = targetLocale(code, pc.locales);
      if (locale === null) continue;
      const values = seoValues(seoEntry, code, pc.assetUrl);
      if (locale === pc.locales.workspaceDefault) seo = values;
      else if (Object.keys(values).length) seoTranslations[locale] = values;
    }
  } else if (seoLink) {
    warnings.push(`page '${entry.sys.id}' links SEO entry '${seoLink}', which is not in the export; its SEO stays empty`);
  }
  return {
    cfId: entry.sys.id,
    id: pageIdFor(pc.workspaceId, entry.sys.id),
    state: cfState(entry.sys),
    seo,
    seoTranslations,
    blocks,
  };
}

function slugOf(text: unknown): string {
  return typeof text === 'string' || typeof text === 'number' ? slugify(String(text)) : '';
}

/** A slug candidate: the `slug` field, else the display field's value, else the Contentful id. */
function pageBaseSlug(type: CfContentType, entry: CfEntry, code: string): string {
  for (const id of ['slug', type.displayField]) {
    const s = id ? slugOf(entry.fields[id]?.[code]) : '';
    if (s) return s;
  }
  return slugOf(entry.sys.id) || 'page';
}

/**
 * Final page slugs, unique per workspace: `base`, then `base-2` … in export order, never one of
 * `reserved` (slugs of pages this import does not own, and route names).
 */
export function assignPageSlugs(pages: Iterable<Pick<PageOutline, 'id' | 'baseSlug'>>, reserved: ReadonlySet<string>): Map<string, string> {
  const taken = new Set(reserved);
  const out = new Map<string, string>();
  for (const p of pages) {
    let slug = p.baseSlug;
    for (let n = 2; taken.has(slug); n++) slug = `${p.baseSlug}-${n}`;
    taken.add(slug);
    out.set(p.id, slug);
  }
  return out;
}

const DROPPED_LINK = /links entry '([^']+)', which is not in the export; the link is dropped$/;

/**
 * The entry mapping reports links to anything it does not import as "not in the export"; for
 * links to pages and to component entries (which became blocks) that says the wrong thing, so
 * those warnings are reworded.
 */
export function explainDroppedLinks(warnings: readonly string[], model: PageModel | null): string[] {
  if (!model) return [...warnings];
  return warnings.map((w) => {
    const m = DROPPED_LINK.exec(w);
    if (!m || !model.notEntries.has(m[1])) return w;
    const what = model.pageIds.has(m[1]) ? 'a page' : 'a block';
    return w.replace(DROPPED_LINK, `links entry '${m[1]}', which is imported as ${what}, not an entry (relations point at entries); the link is dropped`);
  });
}
