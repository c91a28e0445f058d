/**
 * Browsing the media library beyond the list itself: the folders that hold assets (GET
 * /media/folders), so a client can show a folder tree without paging through every asset.
 * Folders exist only through their assets (D52): a folder is created by uploading into it or
 * moving an asset there, and disappears with its last asset.
 */
import type { Context } from '../../context.js';
import type { Actor } from '../auth/permissions.js';
import { checkWorkspaceHeader } from './operations.js';
import { mediaFolderCounts } from './repository.js';

/** GET /media/folders: every folder holding live assets, sorted by path, with its direct count. */
export async function listMediaFolders(ctx: Context, actor: Actor, workspaceHeader: string | undefined): Promise<{ folder: string; count: number }[]> {
  checkWorkspaceHeader(actor, workspaceHeader);
  return mediaFolderCounts(ctx.db, actor.workspaceId);
}
