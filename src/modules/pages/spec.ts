/**
 * What the publishing core (src/modules/publishing/core.ts) needs to know of pages: how a
 * working copy (SEO, SEO translations, the block tree and block translations) reads as a
 * snapshot, how it is copied to the published copy that production keys read, and which
 * required block values it lacks (D22, checked on the working copy at publish time: D71).
 */
import { listAllContentTypes } from '../content-types/repository.js';
import type { ItemKindSpec } from '../publishing/core.js';
import type { SnapshotKind } from '../publishing/snapshots.js';
import { PAGE_TABLES } from '../publishing/repository.js';
import { missingRequiredInBlocks } from './blocks.js';
import type { Page } from './model.js';
import {
  copyPageToPublished,
  dropPagePublished,
  dropPagePublishedCopies,
  findPage,
  loadPageContent,
  writePagePublishedCopies,
  writePageWorkingCopies,
} from './repository.js';
import { pageContentKey, pageSnapshotFromJson, pageSnapshotOf, type PageSnapshot } from './snapshot.js';
import { treePaths } from './tree.js';

export const pageSpec: ItemKindSpec<Page, PageSnapshot> = {
  kind: 'page',
  tables: PAGE_TABLES,
  snapshot: async (db, item) => {
    // Re-read: the write being recorded may have changed the row's SEO.
    const page = await findPage(db, item.workspace_id, { id: item.id });
    if (!page) throw new Error('page vanished inside its write');
    return pageSnapshotOf(await loadPageContent(db, page));
  },
  contentKey: pageContentKey,
  fromJson: pageSnapshotFromJson,
  copyToPublished: (db, item) => copyPageToPublished(db, item.id),
  dropPublished: (db, item) => dropPagePublished(db, item.id),
  missingRequired: async (db, item) => {
    const content = await loadPageContent(db, item);
    const types = new Map((await listAllContentTypes(db, item.workspace_id)).map((t) => [t.id, t]));
    return missingRequiredInBlocks(content.blocks, types, treePaths(content.blocks));
  },
};

/** The batch publishing of pages from snapshots (src/modules/publishing/snapshots.ts: releases and their reverts). */
export const pageSnapshotKind: SnapshotKind<PageSnapshot> = {
  kind: 'page',
  tables: PAGE_TABLES,
  contentKey: pageContentKey,
  fromJson: pageSnapshotFromJson,
  writePublished: (db, items) =>
    writePagePublishedCopies(
      db,
      items.map(({ id, snapshot }) => ({ id, ...snapshot })),
    ),
  writeWorking: (db, items, now) =>
    writePageWorkingCopies(
      db,
      items.map(({ id, snapshot }) => ({ id, ...snapshot })),
      now,
    ),
  dropPublished: dropPagePublishedCopies,
};
