/**
 * Sync tokens (docs/front-ends.md "Sync" (D83)): opaque, signed, bound to the key's workspace, to
 * the perspective they were issued for (perspectiveBinding: the key's visibility, or the release
 * read with `?release`, D111) and to the key's content type whitelist (a key restricted to some
 * types would otherwise continue an unrestricted key's sync, and the reverse would miss items).
 * They are delivery cursors (src/modules/delivery/cursor.ts: base64url JSON + HMAC-SHA256 under a
 * key derived from the installation secret) with a binding of their own, so no list cursor
 * passes as a sync token and no sync token as a list cursor. The workspace and visibility are
 * inside the signed payload rather than in the binding, so a token of another workspace, key
 * kind or release is told apart from a tampered one and answered with its own message.
 *
 * Two kinds: `initial` (a page of the initial sync: the phase and last id listed, plus the event
 * id the sync started from) and `delta` (everything after event id `cutoff`).
 */
import { createHash } from 'node:crypto';
import { AppError, invalid } from '../../errors.js';
import { decodeCursor, encodeCursor, type CursorBinding } from '../delivery/cursor.js';

/** Sync items are listed by kind in this order during an initial sync. */
export type SyncPhase = 'entry' | 'page' | 'media';

/**
 * Where a sync continues. `cutoff` is the last change event the client is up to date with. A
 * delta's `horizon`, when later than `cutoff`, is the last event whose items the client may hold
 * all the same: an initial sync lists rows as they are while it pages, so it may show items
 * created after its cutoff, up to the event that was last when its final page was read.
 */
export type SyncPosition = { kind: 'initial'; cutoff: number; phase: SyncPhase; after: string | null } | { kind: 'delta'; cutoff: number; horizon?: number };

/** What a token is valid for: a workspace and a perspective (src/modules/read/perspective.ts perspectiveBinding). */
export interface SyncScope {
  workspaceId: string;
  /** `production`, `preview` or `release:<id>`. */
  perspective: string;
  /** whitelistBinding of the key's content type whitelist; absent for a key that reads every type. */
  whitelist?: string;
  /**
   * A release perspective: the release's items revision (migration 025). Its changes (items added
   * or removed, release versions edited) record no change events, so a token is only valid while
   * the release's items are as they were when it was issued.
   */
  releaseRevision?: number;
}

/** Why a token of perspective `issued` is refused by a request reading `asked`. */
function otherPerspective(issued: string, asked: string): string {
  const isRelease = (p: string) => p.startsWith('release:');
  if (!isRelease(issued) && !isRelease(asked)) return `was issued to a ${issued} key and this is a ${asked} key`;
  const words = (p: string) => (isRelease(p) ? `release ${p.slice('release:'.length)}` : `a ${p} key without ?release`);
  return `was issued for ${words(issued)} and this request reads ${words(asked)}`;
}

/**
 * What a token remembers of a key's content type whitelist (slugs, D13): a digest of the sorted
 * slugs, the same for two keys with the same whitelist in any order; undefined without one.
 */
export function whitelistBinding(contentTypes: readonly string[]): string | undefined {
  if (contentTypes.length === 0) return undefined;
  const slugs = [...new Set(contentTypes)].sort().join(',');
  return createHash('sha256').update(slugs).digest('base64url').slice(0, 22);
}

const BINDING: CursorBinding = { contentTypeId: 'sync', sort: 'sync:v1', filters: '', locale: null, environment: 'sync' };
const PHASES: readonly SyncPhase[] = ['entry', 'page', 'media'];

/** The token resuming at `position` for `scope`. */
export function encodeSyncToken(secret: Uint8Array, scope: SyncScope, position: SyncPosition): string {
  const body = {
    w: scope.workspaceId,
    v: scope.perspective,
    ...(scope.whitelist === undefined ? {} : { t: scope.whitelist }),
    ...(scope.releaseRevision === undefined ? {} : { r: scope.releaseRevision }),
    c: position.cutoff,
    ...(position.kind === 'initial' ? { p: position.phase } : {}),
    ...(position.kind === 'delta' && position.horizon !== undefined && position.horizon > position.cutoff ? { h: position.horizon } : {}),
  };
  return encodeCursor(secret, BINDING, { value: JSON.stringify(body), id: position.kind === 'initial' ? (position.after ?? '') : '' });
}

/**
 * Verifies `token` (given as query parameter `param`) for `scope`. 400 VALIDATION_FAILED at
 * `query.<param>` when it was altered or not made by this server, when it belongs to another
 * workspace or another perspective (a key of the other visibility, a release read or not read
 * with `?release`) or to a key with another content type whitelist, when the release's items changed since it was issued, or (`deltaOnly`) when
 * it is a page token of an initial sync.
 */
export function decodeSyncToken(secret: Uint8Array, scope: SyncScope, token: string, param: string, deltaOnly: boolean): SyncPosition {
  const path = `query.${param}`;
  const bad = () => invalid(path, 'is not a valid sync token (altered or truncated); pass meta.next_sync_token or meta.next_page_token back unchanged');
  let raw: { value: unknown; id: string };
  try {
    raw = decodeCursor(secret, BINDING, token);
  } catch (err) {
    if (err instanceof AppError) throw bad();
    throw err;
  }
  let body: { w?: unknown; v?: unknown; t?: unknown; r?: unknown; c?: unknown; p?: unknown; h?: unknown };
  try {
    body = JSON.parse(String(raw.value)) as typeof body;
  } catch {
    throw bad();
  }
  if (typeof body !== 'object' || body === null || typeof body.c !== 'number' || !Number.isSafeInteger(body.c) || body.c < 0) throw bad();
  if (body.w !== scope.workspaceId) throw invalid(path, 'was issued for another workspace; start again with initial=true');
  if (body.v !== scope.perspective) {
    throw invalid(path, `${otherPerspective(String(body.v), scope.perspective)}; start again with initial=true`);
  }
  if (body.t !== scope.whitelist) {
    const words = (t: unknown) => (t === undefined ? 'a key that reads every content type' : 'a key restricted to some content types');
    const which = body.t !== undefined && scope.whitelist !== undefined ? 'a key restricted to other content types' : words(body.t);
    throw invalid(path, `was issued to ${which} and this key's content types differ; start again with initial=true`);
  }
  if (scope.releaseRevision !== undefined && body.r !== scope.releaseRevision) {
    throw invalid(path, `was issued before the release's items or release versions changed; start again with initial=true`);
  }
  if (body.p === undefined) {
    if (body.h === undefined) return { kind: 'delta', cutoff: body.c };
    if (typeof body.h !== 'number' || !Number.isSafeInteger(body.h) || body.h < body.c) throw bad();
    return { kind: 'delta', cutoff: body.c, horizon: body.h };
  }
  if (!PHASES.includes(body.p as SyncPhase)) throw bad();
  if (deltaOnly) throw invalid(path, 'is a page token of an initial sync; pass it as page_token');
  return { kind: 'initial', cutoff: body.c, phase: body.p as SyncPhase, after: raw.id === '' ? null : raw.id };
}
