/**
 * The history of an entry (D72) on the shared version list (editor/VersionHistory): "View" shows
 * a version field by field against the current working copy, and "Restore" makes it the working
 * copy again (a new `restore` version; status unchanged).
 */
import { useQuery } from '@tanstack/react-query';
import type { Field, Version } from '../../api/types';
import { useWsKey } from '../../app/queries';
import { useRestore, VersionDialog, VersionList } from '../../editor/VersionHistory';
import { getVersion, listVersions } from './api';
import { diffDrafts, draftOf, referencedIds, type Draft } from './model';
import { fieldOptions } from '../../fields/field-meta';
import { useEntryLookup, useMediaLookup } from '../../fields/shared/lookups';

export interface VersionHistoryProps {
  type: string;
  slug: string;
  fields: Field[];
  locales: string[];
  defaultLocale: string;
  publishedVersion: number | null;
  current: Draft;
  /** bumps when the entry changes, to refetch the list */
  stamp: string;
  canRestore: boolean;
  onRestore: (version: number) => Promise<void>;
}

export function VersionHistory(props: VersionHistoryProps) {
  return (
    <VersionList
      keyParts={['entry', props.type, props.slug]}
      list={(page) => listVersions(props.type, props.slug, page)}
      publishedVersion={props.publishedVersion}
      stamp={props.stamp}
      renderVersion={(version, record, close) => <EntryVersionDialog {...props} version={version} record={record} onClose={close} />}
    />
  );
}

function EntryVersionDialog(props: VersionHistoryProps & { version: number; record: Version | undefined; onClose: () => void }) {
  const key = useWsKey();
  const { busy, error, restore } = useRestore(props.onRestore, props.version, props.onClose);
  const q = useQuery({ queryKey: key('version', props.type, props.slug, props.version), queryFn: () => getVersion(props.type, props.slug, props.version) });
  const before = q.data ? draftOf(q.data.entry) : null;
  const ids = referencedIds(props.fields, before ? [before, props.current] : []);
  const types = props.fields.filter((f) => f.field_type === 'relation' || f.field_type === 'relation_list').flatMap((f) => fieldOptions(f));
  const entries = useEntryLookup(ids.entries, [...new Set(types)]);
  const media = useMediaLookup(ids.media);
  const nameOf = (id: string) => entries.get(id)?.label ?? media.get(id)?.label;
  const rows = before ? diffDrafts(props.fields, props.locales, props.defaultLocale, before, props.current, nameOf) : [];
  return (
    <VersionDialog
      version={props.version}
      record={props.record}
      loadError={q.error}
      rows={
        q.data ? rows.map((r) => ({ key: `${r.locale}:${r.field}`, what: r.label, locale: r.locale, kind: r.kind, before: r.before, after: r.after })) : null
      }
      canRestore={props.canRestore}
      busy={busy}
      restoreError={error}
      onRestore={() => void restore()}
      onClose={props.onClose}
    />
  );
}
