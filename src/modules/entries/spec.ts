/**
 * What the publishing core (src/modules/publishing/core.ts) needs to know of entries: how a
 * working copy reads as a snapshot (data and translations), how it is copied to the published
 * copy that production keys read (`published_data` + published_entry_translations) and which
 * required values it lacks (D22, checked on the working copy at publish time: D71).
 */
import type { ContentType } from '../content-types/model.js';
import type { ItemKindSpec } from '../publishing/core.js';
import type { SnapshotKind } from '../publishing/snapshots.js';
import { ENTRY_TABLES } from '../publishing/repository.js';
import type { Entry } from './model.js';
import {
  copyEntryToPublished,
  dropEntryPublished,
  dropEntryPublishedCopies,
  findEntry,
  writeEntryPublishedCopies,
  writeEntryWorkingCopies,
  type EntryContent,
} from './repository.js';
import { entryContentKey, entrySnapshotFromJson, entrySnapshotOf, type EntrySnapshot } from './snapshot.js';
import { missingRequired } from './validation.js';

/** The publishing core's view of the entries of content type `ct`. */
export function entrySpec(ct: ContentType): ItemKindSpec<Entry, EntrySnapshot> {
  return {
    kind: 'entry',
    tables: ENTRY_TABLES,
    snapshot: async (db, item) => {
      const entry = await findEntry(db, ct.id, { id: item.id });
      if (!entry) throw new Error('entry vanished inside its write');
      return entrySnapshotOf(entry);
    },
    contentKey: entryContentKey,
    fromJson: entrySnapshotFromJson,
    copyToPublished: (db, item) => copyEntryToPublished(db, item.id),
    dropPublished: (db, item) => dropEntryPublished(db, item.id),
    missingRequired: async (_db, item) => missingRequired(ct.fields, item.data, 'data'),
  };
}

const entryContent = ({ id, snapshot }: { id: string; snapshot: EntrySnapshot }): EntryContent => ({
  id,
  data: snapshot.data,
  translations: snapshot.translations,
});

/** The batch publishing of entries from snapshots (src/modules/publishing/snapshots.ts: releases and their reverts). */
export const entrySnapshotKind: SnapshotKind<EntrySnapshot> = {
  kind: 'entry',
  tables: ENTRY_TABLES,
  contentKey: entryContentKey,
  fromJson: entrySnapshotFromJson,
  writePublished: (db, items) => writeEntryPublishedCopies(db, items.map(entryContent)),
  writeWorking: (db, items, now) => writeEntryWorkingCopies(db, items.map(entryContent), now),
  dropPublished: dropEntryPublishedCopies,
};
