/**
 * `quire import contentful FILE --workspace SLUG [--assets-dir DIR] [--pages-type ID] [--changed-as published|draft] [--json]`
 * (docs/cli.md "The `quire` command line" (D61); issue 2 item 10; `--assets-dir`: issue 4 item 6;
 * pages and `--pages-type`:
 * issue 3 item 4):
 * runs the Contentful importer and reports what it did. A progress bar per phase with its ETA
 * (cli-progress) shows on an interactive terminal only, never with `--json`. Entries the API refused are listed, and
 * make the exit code 1 after the report.
 */
import cliProgress from 'cli-progress';
import type { Context } from '../../context.js';
import { importContentful, type ImportResult, type ProgressEvent } from '../../modules/import/operations.js';
import type { ChangedAs, StateCounts } from '../../modules/import/contentful/states.js';
import type { CliIo, CommandResult } from '../io.js';

const PHASE_LABEL: Record<ProgressEvent['phase'], string> = {
  read: 'Reading',
  plan: 'Planning',
  assets: 'Assets',
  entries: 'Entries',
  links: 'Links',
  pages: 'Pages',
};
const SHOWN_MESSAGES = 10;

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/**
 * A progress listener drawing one bar per phase on the terminal (reading the file in MB, then
 * planning, assets, entries, links and pages in items), each with its rate's ETA, and a
 * function to end the last one.
 */
function progressBar(io: CliIo): { onProgress: (e: ProgressEvent) => void; stop: () => void } {
  let bar: cliProgress.SingleBar | null = null;
  let phase: ProgressEvent['phase'] | null = null;
  const amount = (e: ProgressEvent) => (e.phase === 'read' ? `${megabytes(e.done)}/${megabytes(e.total)}` : `${e.done}/${e.total}`);
  return {
    onProgress: (e) => {
      if (phase !== e.phase) {
        bar?.stop();
        phase = e.phase;
        // Only reached when stdout is a TTY, i.e. a real terminal stream cli-progress can drive.
        bar = new cliProgress.SingleBar(
          {
            format: `${PHASE_LABEL[e.phase].padEnd(8)} [{bar}] {percentage}% {amount} | ETA {eta_formatted}`,
            stream: io.stdout as unknown as NodeJS.WritableStream,
            hideCursor: true,
            etaBuffer: 50,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(e.total, 0, { amount: amount(e) });
      }
      bar?.update(e.done, { amount: amount(e) });
    },
    stop: () => bar?.stop(),
  };
}

const actions = (c: { published: number; unpublished: number; archived: number }) =>
  `${c.published} published, ${c.unpublished} unpublished, ${c.archived} archived`;
const states = (s: StateCounts) => `${s.draft} drafts, ${s.published} published, ${s.changed} with unpublished changes, ${s.archived} archived`;

function summary(r: ImportResult): string {
  const lines = [
    `Imported into workspace '${r.workspace.slug}'${r.workspace.created ? ' (created)' : ''}; locales ${r.locales.locales.join(', ')} (default ${r.locales.default})${r.locales.added.length && !r.workspace.created ? `, added ${r.locales.added.join(', ')}` : ''}.`,
    `Content types: ${r.content_types.total} (${r.content_types.created} created, ${r.content_types.updated} updated, ${r.content_types.unchanged} unchanged; ${r.content_types.fields_created} fields created)`,
    `Assets:        ${r.assets.total} (${r.assets.created} created, ${r.assets.updated} updated, ${r.assets.unchanged} unchanged${r.assets.files !== undefined ? `; ${r.assets.files} stored as files` : ''})`,
    `Entries:       ${r.entries.total} (${r.entries.created} created, ${r.entries.updated} updated, ${r.entries.unchanged} unchanged, ${actions(r.entries)}, ${r.entries.failed} failed)`,
    `               in the export: ${states(r.entries.states)}`,
    `Pages:         ${r.pages.total} with ${r.pages.blocks} blocks (${r.pages.created} created, ${r.pages.updated} updated, ${r.pages.unchanged} unchanged, ${actions(r.pages)}, ${r.pages.failed} failed)`,
    `               in the export: ${states(r.pages.states)}${r.pages.draft_blocks ? `; ${r.pages.draft_blocks} draft blocks kept out of published pages` : ''}`,
  ];
  const list = (title: string, items: string[]) => {
    if (!items.length) return;
    lines.push(`${title} (${items.length}):`, ...items.slice(0, SHOWN_MESSAGES).map((m) => `  - ${m}`));
    if (items.length > SHOWN_MESSAGES) lines.push(`  … and ${items.length - SHOWN_MESSAGES} more (use --json for all)`);
  };
  list(
    'Failures',
    r.failures.map((f) => `${f.type} ${f.entry}: ${f.message}`),
  );
  list(
    'Renamed fields',
    r.renamed_fields.map((f) => `${f.content_type}.${f.from} → ${f.to}`),
  );
  list(
    'Unpublished changes in Contentful',
    r.changed.map((c) => `${c.type} ${c.entry} (version ${c.version ?? '?'}, published ${c.published_version ?? '?'}): imported as ${c.imported_as}`),
  );
  list('Warnings', r.warnings);
  if (r.keys) {
    lines.push(
      `Management key: ${r.keys.management}`,
      `Delivery key:   ${r.keys.delivery}`,
      `Preview key:    ${r.keys.preview}`,
      'Store these keys now: they are not shown again.',
    );
  }
  return lines.join('\n');
}

export async function runImportContentful(
  ctx: Context,
  io: CliIo,
  opts: { file: string; workspace: string; assetsDir?: string; pagesType?: string; changedAs?: ChangedAs; json: boolean },
): Promise<CommandResult> {
  const progress = io.stdout.isTTY && !opts.json ? progressBar(io) : null;
  let result: ImportResult;
  try {
    result = await importContentful(ctx, {
      file: opts.file,
      workspace: opts.workspace,
      assetsDir: opts.assetsDir,
      pagesType: opts.pagesType,
      changedAs: opts.changedAs,
      onProgress: progress?.onProgress,
    });
  } finally {
    progress?.stop();
  }
  const failed = result.failures.length;
  const pageFailures = result.pages.failed;
  const entryFailures = failed - pageFailures;
  const what = [
    entryFailures ? `${entryFailures} entr${entryFailures === 1 ? 'y' : 'ies'}` : '',
    pageFailures ? `${pageFailures} page${pageFailures === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return {
    json: { ...result },
    text: summary(result),
    ...(failed ? { failure: `${what} could not be fully imported (see failures)` } : {}),
  };
}
