/**
 * Opening the trace of one delivery answer (docs/visual-editing.md; D140): who may ask for
 * Content Source Maps and stega, and what a trace starts from. REST (`source_maps`, `stega`) and
 * GraphQL (`extensions.sourceMaps`, `extensions.stega`) both ask here.
 */
import { invalid } from '../../errors.js';
import type { Actor } from '../auth/permissions.js';
import { createTrace, type Trace } from './source-map.js';
import { visibilityOf } from './perspective.js';

/** What a request asked for, and the names of its parameters (for the 400's `errors[].path`). */
export interface TraceRequest {
  sourceMaps?: boolean;
  stega?: boolean;
  /** Parameter names as the request spells them: `query.source_maps` / `extensions.sourceMaps`. */
  names: { sourceMaps: string; stega: string };
}

/** The trace request of a REST read from its `source_maps` and `stega` query parameters. */
export function restTraceRequest(query: { source_maps?: boolean; stega?: boolean }): TraceRequest {
  return { sourceMaps: query.source_maps, stega: query.stega, names: { sourceMaps: 'query.source_maps', stega: 'query.stega' } };
}

/**
 * Refuses a trace request from a production key: 400 VALIDATION_FAILED at the parameter (only
 * preview keys edit content; a production answer carries no edit links, D140). Callers ask
 * before reading anything, so the refusal does not depend on what the request names.
 */
export function checkTraceRequest(actor: Pick<Actor, 'environment'>, request: TraceRequest): void {
  if ((request.sourceMaps === true || request.stega === true) && visibilityOf(actor) !== 'preview') {
    const name = request.sourceMaps === true ? request.names.sourceMaps : request.names.stega;
    throw invalid(name, 'source maps and stega are for preview keys; a production key reads plain content');
  }
}

/** The trace of an answer by `actor` for `workspace` (checkTraceRequest's 400 first), or null when neither was asked for. */
export function openTrace(
  publicUrl: string,
  actor: Pick<Actor, 'environment'>,
  workspace: { slug: string; default_locale: string },
  request: TraceRequest,
): Trace | null {
  checkTraceRequest(actor, request);
  return createTrace({
    sourceMaps: request.sourceMaps === true,
    stega: request.stega === true,
    publicUrl,
    workspaceSlug: workspace.slug,
    defaultLocale: workspace.default_locale,
  });
}
