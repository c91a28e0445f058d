/**
 * `quire <command>`: the command-line interface (docs/cli.md "The `quire` command line" (D61)).
 * This file only parses the
 * command line (commander) and dispatches; each command's logic lives in src/cli/commands/ and
 * calls the same operations as the HTTP routes, in the same environment as the server
 * (src/cli/runtime.ts).
 *
 * Output: `--json` prints exactly one JSON object on stdout, otherwise a short summary. Errors:
 * one `quire: <message>` line on stderr, exit code 1, or 2 for usage errors (unknown command or
 * option, missing or malformed argument).
 *
 * runCli is the in-process entry point (bin/quire.js and the tests call it); it never exits
 * the process and returns the exit code.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { Context } from '../context.js';
import { parseDuration } from '../lib/time.js';
import { runAuditExport } from './commands/audit.js';
import { runBootstrap } from './commands/bootstrap.js';
import { runExport, runImportQuire } from './commands/export.js';
import { runImportContentful } from './commands/import-contentful.js';
import { CHANGED_AS, type ChangedAs } from '../modules/import/contentful/states.js';
import { WEBHOOK_MODES, type WebhookRestoreMode } from '../modules/export/restore.js';
import { runKeysCreate, runKeysRevoke } from './commands/keys.js';
import { runPreviewToken } from './commands/preview-token.js';
import { runTypegen } from './commands/typegen.js';
import { runUsersCreate, runUsersSetPassword, runUsersSetRole } from './commands/users.js';
import { CliUsageError, describeError, EXIT_OK, EXIT_USAGE, printResult, type CliIo, type CommandResult } from './io.js';
import { openRuntime } from './runtime.js';

export type { CliIo, CliStream } from './io.js';

export interface RunCliOptions extends CliIo {
  /**
   * An already open Context to run the commands on instead of opening the database named by
   * `env` (tests pass the Context of their per-suite database). It is left open.
   */
  context?: Context;
}

/** Splits `a,b,,c` into `['a', 'b', 'c']`. */
function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `--expires-in 30d|12h|90s|15m` → milliseconds; anything else is a usage error. */
function duration(value: string): number {
  const ms = parseDuration(value);
  if (ms === null || ms <= 0) throw new InvalidArgumentError('expected a positive number followed by s, m, h or d (e.g. 90s, 12h, 30d)');
  return ms;
}

type Runner = (ctx: Context, io: CliIo) => Promise<CommandResult>;
/** A command that needs no database (e.g. `typegen --url`): run without opening one. */
type DbFreeRunner = (ctx: null, io: CliIo) => Promise<CommandResult>;

function buildProgram(io: RunCliOptions, execute: (run: Runner, json: boolean, withoutDb?: DbFreeRunner) => Promise<void>): Command {
  const program = new Command('quire')
    .description(
      'Quire command line: workspaces, users, API keys, preview tokens, imports and client types.\nUses the same environment as the server (DATA_DIR, DATABASE_URL, ...).',
    )
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      outputError: (s, write) => write(`quire: ${s.replace(/^error: /, '').trimEnd()}\n`),
    });

  program
    .command('bootstrap')
    .description('create a workspace, its owner and three keys (management, delivery, preview)')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .option('--name <name>', 'workspace name (default: the slug)')
    .option('--default-locale <locale>', 'default locale (default: the first of --locales, else en)')
    .option('--locales <list>', 'comma-separated locales, e.g. en,de,fr', list)
    .option('--email <email>', 'owner email (an existing user is reused)')
    .option('--json', 'print one JSON object')
    .action((o: { workspace: string; name?: string; defaultLocale?: string; locales?: string[]; email?: string; json?: boolean }) =>
      execute((ctx) => runBootstrap(ctx, o), Boolean(o.json)),
    );

  const users = program.command('users').description('workspace members');
  users
    .command('create')
    .description('add a user (new or existing by email) to a workspace with a role')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .requiredOption('--email <email>', 'user email')
    .requiredOption('--role <role>', 'owner, admin, editor, author or viewer')
    .option('--json', 'print one JSON object')
    .action((o: { workspace: string; email: string; role: string; json?: boolean }) => execute((ctx) => runUsersCreate(ctx, o), Boolean(o.json)));
  users
    .command('set-role')
    .description("change a member's role (takes effect on the next request)")
    .requiredOption('--workspace <slug>', 'workspace slug')
    .requiredOption('--email <email>', 'user email')
    .requiredOption('--role <role>', 'owner, admin, editor, author or viewer')
    .option('--json', 'print one JSON object')
    .action((o: { workspace: string; email: string; role: string; json?: boolean }) => execute((ctx) => runUsersSetRole(ctx, o), Boolean(o.json)));
  users
    .command('set-password')
    .description("set a member's Studio password from stdin (ends their sessions), or print a new one-time setup link with --link")
    .requiredOption('--workspace <slug>', 'workspace slug')
    .requiredOption('--email <email>', 'user email')
    .option('--link', 'print a one-time setup link (72 h) instead of reading a password')
    .option('--json', 'print one JSON object')
    .action((o: { workspace: string; email: string; link?: boolean; json?: boolean }) =>
      execute((ctx, cliIo) => runUsersSetPassword(ctx, cliIo, o), Boolean(o.json)),
    );

  const keys = program.command('keys').description('API keys');
  keys
    .command('create')
    .description('create an API key (shown once)')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .addOption(new Option('--class <class>', 'key class').choices(['delivery', 'management']).makeOptionMandatory())
    .addOption(new Option('--environment <env>', 'delivery keys: production or preview').choices(['production', 'preview']))
    .option('--content-types <list>', 'delivery keys: comma-separated content type slugs the key may read', list)
    .option('--scopes <list>', 'management keys: comma-separated scopes (default: all)', list)
    .option('--user <email>', 'the member the key acts for (default: the workspace owner)')
    .option('--expires-in <duration>', 'lifetime, e.g. 90s, 12h, 30d (management default 90d, at most 365d)', duration)
    .option('--json', 'print one JSON object')
    .action(
      (o: {
        workspace: string;
        class: 'delivery' | 'management';
        environment?: 'production' | 'preview';
        contentTypes?: string[];
        scopes?: string[];
        user?: string;
        expiresIn?: number;
        json?: boolean;
      }) =>
        execute(
          (ctx) =>
            runKeysCreate(ctx, {
              workspace: o.workspace,
              keyClass: o.class,
              environment: o.environment,
              contentTypes: o.contentTypes,
              scopes: o.scopes,
              user: o.user,
              expiresInMs: o.expiresIn,
            }),
          Boolean(o.json),
        ),
    );
  keys
    .command('revoke')
    .description('revoke an API key (it stops working on the next request)')
    .requiredOption('--id <id>', 'key id')
    .option('--json', 'print one JSON object')
    .action((o: { id: string; json?: boolean }) => execute((ctx) => runKeysRevoke(ctx, o), Boolean(o.json)));

  program
    .command('preview-token')
    .description('mint a signed preview token for one entry (valid 48 hours)')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .requiredOption('--entry <id>', 'entry id')
    .option('--json', 'print one JSON object')
    .action((o: { workspace: string; entry: string; json?: boolean }) => execute((ctx) => runPreviewToken(ctx, o), Boolean(o.json)));

  program
    .command('typegen')
    .description(
      "write TypeScript types of a workspace's content model for @quire/client, or with --graphql its GraphQL schema as SDL (from the database, or a server with --url and --key)",
    )
    .option('--out <file>', 'the file to write, e.g. src/quire.d.ts (required without --graphql; with --graphql, - or none prints the SDL)')
    .option('--graphql', "write the workspace's GraphQL schema (SDL) instead, as GET /api/v1/public/graphql/schema.graphql serves it")
    .option('--workspace <slug>', 'workspace slug (reads the database of this environment)')
    .option('--url <url>', "a running server's base URL (reads the model over the API; needs --key)")
    .option('--key <key>', 'an API key for --url: delivery (the types it may read) or management; --graphql needs a delivery key')
    .option('--json', 'print one JSON object')
    .action((o: { out?: string; graphql?: boolean; workspace?: string; url?: string; key?: string; json?: boolean }) => {
      if (!o.graphql && !o.out) throw new CliUsageError("required option '--out <file>' not specified");
      return execute((ctx) => runTypegen(ctx, o), Boolean(o.json), o.url || o.key ? () => runTypegen(null, o) : undefined);
    });

  program
    .command('export')
    .description('write a workspace whole (content model, content with history, pages, media files, webhooks without secrets) to a directory or .tar file')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .requiredOption('--out <path>', 'an empty or new directory, or a file ending in .tar')
    .option('--with-users', 'also export the members (email, name, role; never passwords)')
    .option('--json', 'print one JSON object')
    .action((o: { workspace: string; out: string; withUsers?: boolean; json?: boolean }) =>
      execute((ctx) => runExport(ctx, { workspace: o.workspace, out: o.out, withUsers: Boolean(o.withUsers) }), Boolean(o.json)),
    );

  program
    .command('audit')
    .description('the audit log')
    .command('export')
    .description('write the audit log as NDJSON (one row per line, oldest first) to stdout')
    .requiredOption('--since <iso>', 'rows at or after this ISO 8601 time')
    .option('--until <iso>', 'rows before this ISO 8601 time')
    .option('--workspace <slug>', "one workspace's rows (default: the whole installation)")
    .action((o: { since: string; until?: string; workspace?: string }) => execute((ctx, cliIo) => runAuditExport(ctx, cliIo, o), false));

  const imports = program.command('import').description('import content from other systems');
  imports
    .command('contentful')
    .description('import a Contentful space export (running it twice changes nothing the second time)')
    .argument('<file>', 'the export JSON file (contentful space export)')
    .requiredOption('--workspace <slug>', 'target workspace (created with the export locales if missing)')
    .option('--assets-dir <dir>', 'upload the asset files found in DIR (by file name) instead of linking to their remote URLs')
    .option('--pages-type <id>', 'the Contentful content type imported as pages with block trees (default: page, when the export has it)')
    .addOption(
      new Option('--changed-as <status>', 'what entries and pages with unpublished changes become: published (their latest content) or draft').choices(
        CHANGED_AS,
      ),
    )
    .option('--json', 'print one JSON object')
    .action((file: string, o: { workspace: string; assetsDir?: string; pagesType?: string; changedAs?: ChangedAs; json?: boolean }) =>
      execute(
        (ctx, cliIo) =>
          runImportContentful(ctx, cliIo, {
            file,
            workspace: o.workspace,
            assetsDir: o.assetsDir,
            pagesType: o.pagesType,
            changedAs: o.changedAs,
            json: Boolean(o.json),
          }),
        Boolean(o.json),
      ),
    );

  imports
    .command('quire')
    .description('restore a quire export (directory or .tar) into an empty workspace, keeping ids, history and states')
    .argument('<path>', 'the export directory or .tar file')
    .requiredOption('--workspace <slug>', 'target workspace (created if missing; must be empty)')
    .addOption(
      new Option('--webhooks <state>', 'restored webhooks (with new secrets): disabled until enabled (default), or as-exported').choices(WEBHOOK_MODES),
    )
    .option('--json', 'print one JSON object')
    .action((source: string, o: { workspace: string; webhooks?: WebhookRestoreMode; json?: boolean }) =>
      execute((ctx) => runImportQuire(ctx, { source, workspace: o.workspace, webhooks: o.webhooks }), Boolean(o.json)),
    );

  return program;
}

/**
 * Runs one `quire` command line (`argv` without node and the script) and returns its exit code.
 * Writes only to `stdout` and `stderr`; reads the environment only from `env`.
 */
export async function runCli(argv: readonly string[], options: RunCliOptions): Promise<number> {
  let exitCode = EXIT_OK;
  const execute = async (run: Runner, json: boolean, withoutDb?: DbFreeRunner): Promise<void> => {
    if (withoutDb && !options.context) {
      exitCode = printResult(options, await withoutDb(null, options), json);
      return;
    }
    const runtime = options.context ? { ctx: options.context, close: async () => {} } : await openRuntime(options);
    try {
      exitCode = printResult(options, await run(runtime.ctx, options), json);
    } finally {
      await runtime.close();
    }
  };
  const program = buildProgram(options, execute);
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version requested explicitly exit 0; commander has already printed them, and
      // has printed usage errors through outputError.
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT_OK;
      if (err.code === 'commander.help') return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
      return EXIT_USAGE;
    }
    const { line, code } = describeError(err);
    options.stderr.write(`quire: ${line}\n`);
    exitCode = code;
  }
  return exitCode;
}

/** The real process's environment and streams (bin/quire.js). */
export function processIo(): CliIo {
  return { env: process.env, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin };
}
