/**
 * How the audit log names a release action (docs/access.md "Audit log" (D122)): the release by id
 * and title, in its workspace. Shared by the release operations, publication and release versions.
 */
import type { Actor } from '../auth/permissions.js';
import { auditEntry, type AuditActor, type AuditEntry } from '../audit/record.js';

/** The entry of `action` (`release.<verb>`) on `release` by `actor` at `at`, with `changedFields` when given. */
export function releaseAudit(
  actor: Actor | AuditActor,
  release: { id: string; workspace_id: string; title: string },
  at: string,
  action: string,
  changedFields?: readonly string[],
): AuditEntry {
  return auditEntry(release.workspace_id, at, actor, action, { kind: 'release', id: release.id, slug: release.title }, changedFields);
}
