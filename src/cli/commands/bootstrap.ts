/**
 * `quire bootstrap --workspace SLUG [--name NAME] [--default-locale en] [--locales en,de,fr]
 * [--email EMAIL] [--json]` (docs/cli.md "The `quire` command line" (D61)): creates the workspace,
 * its owner (reused by
 * email) and three keys through the auth `bootstrap` operation. JSON: `{workspace: {id, slug},
 * user: {id, email}, keys: {management, delivery, preview}, setup_url}`; `setup_url` is the
 * owner's one-time Studio link to set a password (72 h; D90), null when the owner already has
 * one. The keys and the link are shown only here.
 */
import type { Context } from '../../context.js';
import { bootstrap } from '../../modules/auth/operations.js';
import type { CommandResult } from '../io.js';

export interface BootstrapOptions {
  workspace: string;
  name?: string;
  defaultLocale?: string;
  locales?: string[];
  email?: string;
}

export async function runBootstrap(ctx: Context, opts: BootstrapOptions): Promise<CommandResult> {
  // Without --default-locale the first of --locales is the default (en when neither is given).
  const defaultLocale = opts.defaultLocale ?? opts.locales?.[0] ?? 'en';
  const result = await bootstrap(ctx, {
    slug: opts.workspace,
    name: opts.name,
    default_locale: defaultLocale,
    locales: opts.locales ?? [defaultLocale],
    email: opts.email,
  });
  const text = [
    `Created workspace '${result.workspace.slug}' (${result.workspace.id}) owned by ${result.user.email}.`,
    `Management key: ${result.keys.management}`,
    `Delivery key:   ${result.keys.delivery}`,
    `Preview key:    ${result.keys.preview}`,
    'Store these keys now: they are not shown again.',
    ...(result.setup_url ? [`Studio: set the owner's password within 72 hours at ${result.setup_url}`] : []),
  ].join('\n');
  return { json: { ...result }, text };
}
