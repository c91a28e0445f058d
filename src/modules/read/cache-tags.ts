/**
 * Cache tags (docs/front-ends.md "Cache tags and CDN purge", D142): the opaque names of what a
 * delivery answer depends on, sent in `Cache-Tag` (comma-separated) and `Surrogate-Key`
 * (space-separated), carried by webhook bodies and live events, so a CDN purges and a client
 * refetches exactly the answers a change touched. The vocabulary and its rules live here only:
 *
 * - `e:<id>` an entry, `p:<id>` a page, `m:<id>` a media asset, `r:<id>` a release: the item an
 *   answer returned or resolved (a relation, a linked asset, a block's references), including
 *   references that resolved to nothing, so their later publication purges the answer.
 * - `t:<workspace>:<type slug>` the list of entries of one type, `pages:<workspace>` the page list,
 *   `media:<workspace>` the asset list: carried by list answers; a change of any item of the list
 *   carries it too, so an item appearing in (or leaving) a list purges the list.
 * - `model:<workspace>` the content model, carried by every answer that read it (nearly all): a
 *   content-type change purges them all, since it may change any of them.
 * - `any:<workspace>` carried by every change, and only by answers that depend on any change
 *   (sync) or that named too many items (the cap below).
 *
 * The cap (MAX_TAGS tags, MAX_TAG_BYTES bytes of header): over it, item tags give way to their
 * list's tag (a related entry's type list, the asset list) or, for items whose list is not known
 * (a reference that resolved to nothing), to `any:<workspace>`; if the lists alone are still
 * over the cap, the answer carries `model:` and `any:` only. Every change carries its item's tag,
 * its list's tag and `any:`, so whatever an answer collapsed to, a purge by a change's tags still
 * reaches it.
 *
 * Tags are noted while an answer is read (the read model's functions call the note* helpers
 * below), into the answer's AnswerTags, which travels with the context the read was given: the
 * delivery plugin hands each handler a copy of the app's context carrying the request's
 * AnswerTags (`ctx.answerTags`, src/http/cache-tags.ts taggedContext), and GraphQL's per-request
 * state and DataLoaders hold that copy. Contexts without one (management, CLI, jobs) note nothing.
 * The collector is passed explicitly rather than held in an AsyncLocalStorage, which would turn
 * on Node's promise hooks for every promise of the process, cached hits included (docs/scaling.md
 * "Repeated requests").
 */

/** Most tags one answer carries. */
export const MAX_TAGS = 64;
/** Most bytes of one tag header (Cloudflare and Fastly take 16 KB; proxies in between less). */
export const MAX_TAG_BYTES = 4_096;

/** The tag of an entry, page, media asset or release. */
export function itemTag(kind: 'entry' | 'page' | 'media' | 'release', id: string): string {
  return `${kind === 'entry' ? 'e' : kind === 'page' ? 'p' : kind === 'media' ? 'm' : 'r'}:${id}`;
}

/** The list tag of entries of type `typeSlug` in a workspace. */
export function entryListTag(workspaceId: string, typeSlug: string): string {
  return `t:${workspaceId}:${typeSlug}`;
}

export const pageListTag = (workspaceId: string) => `pages:${workspaceId}`;
export const mediaListTag = (workspaceId: string) => `media:${workspaceId}`;
export const modelTag = (workspaceId: string) => `model:${workspaceId}`;
export const anyChangeTag = (workspaceId: string) => `any:${workspaceId}`;

/** What a change event says of its item (an `events` row). */
export interface TaggedChange {
  workspaceId: string;
  itemKind: string;
  itemId: string;
  /** An entry's content type slug; a content type event's own slug. */
  contentType: string | null;
}

/**
 * The tags of a change (webhook bodies, live events): its item's tag and list tag, `model:` for a
 * content-type change, and `any:`. Unknown kinds carry `any:` only.
 */
export function changeTags(change: TaggedChange): string[] {
  const ws = change.workspaceId;
  switch (change.itemKind) {
    case 'entry':
      return [itemTag('entry', change.itemId), ...(change.contentType ? [entryListTag(ws, change.contentType)] : []), anyChangeTag(ws)];
    case 'page':
      return [itemTag('page', change.itemId), pageListTag(ws), anyChangeTag(ws)];
    case 'media':
      return [itemTag('media', change.itemId), mediaListTag(ws), anyChangeTag(ws)];
    case 'content_type':
      return [modelTag(ws), ...(change.contentType ? [entryListTag(ws, change.contentType)] : []), anyChangeTag(ws)];
    case 'release':
      return [itemTag('release', change.itemId), anyChangeTag(ws)];
    default:
      return [anyChangeTag(ws)];
  }
}

/** The tags one answer depends on, as noted while it was read. */
export class AnswerTags {
  /** Tags that stay whatever the cap (lists, the model, a release, `any:`), in the order noted. */
  readonly #lists = new Set<string>();
  /** Item tags, each with the list tag it gives way to over the cap (null: `any:`). */
  readonly #items = new Map<string, string | null>();

  constructor(readonly workspaceId: string) {}

  /** Notes a tag every version of the answer keeps (a list, the model, `any:`). */
  list(tag: string): void {
    this.#lists.add(tag);
  }

  /** Notes an item's tag and the list tag it gives way to over the cap (null: none known). */
  item(tag: string, list: string | null): void {
    if (!this.#items.has(tag) || this.#items.get(tag) === null) this.#items.set(tag, list);
  }

  /** The tags to send, within MAX_TAGS and MAX_TAG_BYTES (the rule in the module comment). */
  resolve(): string[] {
    const all = [...this.#lists, ...this.#items.keys()];
    if (fits(all)) return all;
    const collapsed = new Set(this.#lists);
    for (const list of this.#items.values()) collapsed.add(list ?? anyChangeTag(this.workspaceId));
    const lists = [...collapsed];
    if (fits(lists)) return lists;
    return [modelTag(this.workspaceId), anyChangeTag(this.workspaceId)];
  }
}

function fits(tags: readonly string[]): boolean {
  if (tags.length > MAX_TAGS) return false;
  let bytes = 0;
  for (const t of tags) bytes += t.length + 1;
  return bytes <= MAX_TAG_BYTES;
}

/** The two header values of `tags`: `Cache-Tag` (comma-separated) and `Surrogate-Key` (space-separated). */
export function tagHeaders(tags: readonly string[]): { cacheTag: string; surrogateKey: string } {
  return { cacheTag: tags.join(','), surrogateKey: tags.join(' ') };
}

/** Whatever may carry a delivery answer's tags: a context (Context.answerTags; absent: nothing is noted). */
export interface TagNoter {
  readonly answerTags?: AnswerTags;
}

/** Notes the content model of `workspaceId` (every read that loads it). */
export function noteModel(ctx: TagNoter, workspaceId: string): void {
  ctx.answerTags?.list(modelTag(workspaceId));
}

/** Notes that the answer depends on any change of its workspace (sync). */
export function noteAnyChange(ctx: TagNoter, workspaceId: string): void {
  ctx.answerTags?.list(anyChangeTag(workspaceId));
}

/** Notes a list of entries of type `typeSlug`. */
export function noteEntryList(ctx: TagNoter, workspaceId: string, typeSlug: string): void {
  ctx.answerTags?.list(entryListTag(workspaceId, typeSlug));
}

/** Notes entries read or referenced: each its id and its type slug when known (its list tag over the cap). */
export function noteEntries(ctx: TagNoter, workspaceId: string, entries: Iterable<{ id: string; typeSlug: string | null }>): void {
  const tags = ctx.answerTags;
  if (!tags) return;
  for (const e of entries) tags.item(itemTag('entry', e.id), e.typeSlug === null ? null : entryListTag(workspaceId, e.typeSlug));
}

/** Notes pages read (`list`: the page list was read too). */
export function notePages(ctx: TagNoter, workspaceId: string, ids: Iterable<string>, list = false): void {
  const tags = ctx.answerTags;
  if (!tags) return;
  if (list) tags.list(pageListTag(workspaceId));
  for (const id of ids) tags.item(itemTag('page', id), pageListTag(workspaceId));
}

/** Notes media assets read or referenced (`list`: the asset list was read too). */
export function noteMedia(ctx: TagNoter, workspaceId: string, ids: Iterable<string>, list = false): void {
  const tags = ctx.answerTags;
  if (!tags) return;
  if (list) tags.list(mediaListTag(workspaceId));
  for (const id of ids) tags.item(itemTag('media', id), mediaListTag(workspaceId));
}

/** Notes the release an answer was read as (`?release`). */
export function noteRelease(ctx: TagNoter, releaseId: string): void {
  ctx.answerTags?.list(itemTag('release', releaseId));
}
