/**
 * Webhook event types and subscription patterns (D82). A webhook's `events` lists exact types
 * (`entry.published`), a kind with a wildcard (`entry.*`), an action of every kind that has it
 * (`*.stage_changed`: entries and pages, docs/workflow.md "Workflows and stages") or `*`
 * (everything). `ping` is sent by POST /webhooks/{id}/ping only and cannot be subscribed to.
 */
import type { ErrorDetail } from '../../errors.js';

const STATE_ACTIONS = ['created', 'updated', 'deleted', 'published', 'unpublished', 'archived', 'scheduled', 'restored'] as const;

/** Every event type a webhook can receive, by item kind. */
export const EVENT_TYPES: Record<string, readonly string[]> = {
  entry: [...STATE_ACTIONS.map((a) => `entry.${a}`), 'entry.stage_changed'],
  page: [...STATE_ACTIONS.map((a) => `page.${a}`), 'page.stage_changed'],
  media: ['media.created', 'media.updated', 'media.deleted'],
  content_type: ['content_type.created', 'content_type.updated', 'content_type.deleted'],
  release: ['release.scheduled', 'release.published', 'release.failed'],
};

const ALL_TYPES = new Set(Object.values(EVENT_TYPES).flat());
/** The actions some kind has (`published`, `stage_changed`, …), for `*.<action>` patterns. */
const ALL_ACTIONS = new Set([...ALL_TYPES].map((t) => t.slice(t.lastIndexOf('.') + 1)));

/** Problems with an `events` list (at `path`), as validation details; empty when valid. */
export function checkEventPatterns(patterns: readonly string[], path: string): ErrorDetail[] {
  const errors: ErrorDetail[] = [];
  if (patterns.length === 0) errors.push({ path, message: 'name at least one event, e.g. entry.published, entry.* or *' });
  patterns.forEach((p, i) => {
    if (p === '*' || ALL_TYPES.has(p)) return;
    const kind = p.endsWith('.*') ? p.slice(0, -2) : null;
    if (kind !== null && kind in EVENT_TYPES) return;
    if (p.startsWith('*.') && ALL_ACTIONS.has(p.slice(2))) return;
    errors.push({ path: `${path}.${i}`, message: `unknown event '${p}'; use *, <kind>.*, *.<action> or one of ${[...ALL_TYPES].join(', ')}` });
  });
  return errors;
}

/**
 * True when a webhook with `patterns` and `contentTypes` (empty: all) receives an event of
 * `type` about an item of content type `contentType` (null for pages and media). The content
 * type filter applies to events that carry a content type (entries, content types); others pass.
 */
export function matchesEvent(patterns: readonly string[], contentTypes: readonly string[], type: string, contentType: string | null): boolean {
  const dot = type.lastIndexOf('.');
  const kind = type.slice(0, dot);
  const action = type.slice(dot + 1);
  const subscribed = patterns.some((p) => p === '*' || p === type || p === `${kind}.*` || p === `*.${action}`);
  if (!subscribed) return false;
  return contentTypes.length === 0 || contentType === null || contentTypes.includes(contentType);
}
