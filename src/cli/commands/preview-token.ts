/**
 * `quire preview-token --workspace SLUG --entry ENTRY_ID [--json]` → `{token, expires_at}`
 * (docs/api.md "Preview tokens" (D46); docs/cli.md "The `quire` command line" (D61)): a signed
 * token naming one entry of the workspace, valid 48 hours,
 * for `GET /api/v1/public/preview?token=…`. 404 when the entry is not in the workspace.
 */
import type { Context } from '../../context.js';
import { requireWorkspace } from '../../modules/auth/operations.js';
import { mintPreviewToken } from '../../modules/preview/operations.js';
import type { CommandResult } from '../io.js';

export async function runPreviewToken(ctx: Context, opts: { workspace: string; entry: string }): Promise<CommandResult> {
  const ws = await requireWorkspace(ctx, opts.workspace);
  const minted = await mintPreviewToken(ctx, ws.id, opts.entry);
  return {
    json: { token: minted.token, expires_at: minted.expires_at },
    text: [`Preview token for entry ${opts.entry} (expires ${minted.expires_at}):`, minted.token].join('\n'),
  };
}
