/**
 * `quire export --workspace SLUG --out DIR|FILE.tar [--with-users] [--json]` and
 * `quire import quire DIR|FILE.tar --workspace SLUG [--webhooks disabled|as-exported] [--json]` (issue 12 item 5): a workspace
 * written whole to a versioned export, and restored from one into an empty workspace on any
 * database (src/modules/export; the format in docs/cli.md). The restore prints the new webhook
 * secrets once; `--webhooks as-exported` keeps their enabled state instead of disabling them.
 */
import type { Context } from '../../context.js';
import { exportWorkspace } from '../../modules/export/export.js';
import { restoreWorkspaceExport, type WebhookRestoreMode } from '../../modules/export/restore.js';
import type { CommandResult } from '../io.js';

const ORDER = [
  'content_types',
  'fields',
  'entries',
  'entry_versions',
  'pages',
  'blocks',
  'page_versions',
  'releases',
  'release_items',
  'media',
  'media_files',
  'webhooks',
  'members',
];

function countsLine(counts: Record<string, number>): string {
  return ORDER.filter((k) => counts[k] !== undefined)
    .map((k) => `${counts[k]} ${k.replace(/_/g, ' ')}`)
    .join(', ');
}

function mib(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MiB`;
}

export async function runExport(ctx: Context, opts: { workspace: string; out: string; withUsers?: boolean }): Promise<CommandResult> {
  const started = Date.now();
  const r = await exportWorkspace(ctx, opts);
  const seconds = (Date.now() - started) / 1000;
  const lines = [
    `Exported workspace '${r.workspace.slug}' to ${r.kind === 'tar' ? 'the tar file' : 'the directory'} ${r.out} (${mib(r.bytes)}, ${seconds.toFixed(1)} s).`,
    `Contents: ${countsLine(r.counts)}.`,
  ];
  if (!opts.withUsers) lines.push('Members and API keys are not part of it (add --with-users for the members).');
  if (r.missing_files.length) lines.push(`Missing media files (records exported without them): ${r.missing_files.join(', ')}`);
  return { json: { ...r, seconds }, text: lines.join('\n') };
}

export async function runImportQuire(ctx: Context, opts: { source: string; workspace: string; webhooks?: WebhookRestoreMode }): Promise<CommandResult> {
  const started = Date.now();
  const r = await restoreWorkspaceExport(ctx, opts);
  const seconds = (Date.now() - started) / 1000;
  const lines = [
    `Restored workspace '${r.from.workspace}' (exported by Quire ${r.from.quire_version}) into '${r.workspace.slug}'${r.workspace.created ? ' (created)' : ''} in ${seconds.toFixed(1)} s.`,
    `Contents: ${countsLine(r.counts)}.`,
  ];
  if (r.users)
    lines.push(`Members: ${r.users.created} users created (without passwords: quire users set-password --link), ${r.users.matched} matched by email.`);
  if (r.renumbered) lines.push(`${r.renumbered} translation records got new ids (theirs were taken in this database).`);
  if (r.webhooks.length) {
    lines.push(
      opts.webhooks === 'as-exported'
        ? 'Webhooks were restored as exported with new signing secrets, shown only now; give each receiver its secret:'
        : 'Webhooks were restored disabled with new signing secrets, shown only now; give each receiver its secret, then enable the webhook:',
    );
    for (const w of r.webhooks) lines.push(`  ${w.id}  ${w.url}  ${w.secret}`);
  }
  lines.push('Create API keys for it with quire keys create (keys are never exported).');
  return { json: { ...r, seconds }, text: lines.join('\n') };
}
