/**
 * The entry editor (routes /studio/:workspace/content/:type/:entry and …/new). The form renders
 * from the content type's fields (one widget per field type); a locale switcher edits the
 * translations of localizable fields beside the default-locale values. Edits autosave to the
 * working copy (PUT with If-Match, ~1 s after the last change); a 412 says someone else saved
 * first and offers a reload. The status bar carries the state actions the role allows, preview,
 * duplicate and delete; the history panel shows versions with a diff and restores them.
 * API errors land on their fields through `errors[].path`.
 */
import '@mantine/dates/styles.css';
import '@mantine/tiptap/styles.css';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Anchor, Button, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import type { ContentType, Entry } from '../../api/types';
import { useContentTypes, useInvalidate, useWorkspaceSettings, useWsKey, type WorkspaceSettings } from '../../app/queries';
import { useWorkspace } from '../../app/workspace';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { apiFieldSources } from '../../fields/api-sources';
import { FieldSourcesContext } from '../../fields/sources';
import { changeState, createEntry, deleteEntry, duplicateEntry, entryPath, getEntry, getVersion, mintPreviewToken, restoreVersion, saveEntry } from './api';
import { AUTOSAVE_DELAY_MS, PREVIEW_AUTOSAVE_DELAY_MS, useAutosave } from '../../editor/autosave';
import { LocaleSwitch } from '../../editor/LocaleSwitch';
import { LazyScheduleDialog } from '../../editor/LazyScheduleDialog';
import { ConflictAlert, useStatusActions } from '../../editor/actions';
import { StatusActions } from '../../editor/StatusActions';
import { EditorColumns, useLivePreviewPane } from '../../editor/LivePreview';
import { fieldTargets, revealTarget, type ErrorTarget } from '../../editor/field-errors';
import { useEditRequests } from '../../editor/edit-requests';
import { FieldErrorsAlert } from '../../editor/FieldErrorsAlert';
import { EntryForm } from './EntryForm';
import { diffDrafts, displayValue, draftOf, mapErrors, type Draft } from './model';
import { PublishDialog } from '../../editor/PublishDialog';
import { previewUrl } from '../../editor/preview-protocol';
import { VersionHistory } from './VersionHistory';
import { BuiltinPreview } from '../../editor/BuiltinPreview';
import { ReleaseActions, ReleaseBanner, useReleaseVariant, type ReleaseVariant } from '../../editor/ReleaseEditing';
import { LazyWorkflowBar } from '../../editor/LazyWorkflowBar';
import { publishBlockedReason, withWorkflowAfterSave, workflowOf } from '../../editor/workflow-state';
import { useWorkflows } from '../../api/workflows';
import { useItemCollab } from '../../editor/collab/ItemCollab';
import { CommentsContext } from '../../editor/comments/context';
import { entryWriteLimits, type Permission } from '../../../../src/modules/access/permission-rules';

export default function EntryEditorScreen() {
  const { type = '', entry: slug } = useParams();
  const types = useContentTypes();
  const settings = useWorkspaceSettings();
  const key = useWsKey();
  // In a release perspective an entry the release publishes opens its release version (docs/studio.md "Releases").
  const variant = useReleaseVariant({ kind: 'entry', slug: slug ?? '', type });
  const releaseId = slug ? variant.releaseId : null;
  const loaded = useQuery({
    queryKey: key('entry', type, slug, releaseId),
    queryFn: () => getEntry(type, slug as string, releaseId),
    enabled: !!slug && !variant.perspective.pending,
    staleTime: 0,
    gcTime: 0,
  });
  const { can } = useWorkspace();
  const canUpload = can('media:write');
  const sources = useMemo(() => apiFieldSources({ canUpload }), [canUpload]);
  const ct = types.data?.find((t) => t.slug === type);
  const error = types.error ?? settings.error ?? loaded.error;
  if (error) return <ErrorAlert error={error} title="The entry could not be loaded" />;
  if (types.isPending || settings.isPending || (slug && (variant.perspective.pending || loaded.isPending))) return <Loading label="Loading entry" />;
  if (!ct) return <ErrorAlert error={new Error(`There is no content type '${type}' in this workspace.`)} title="Not found" />;
  return (
    <FieldSourcesContext.Provider value={sources}>
      {slug && loaded.data ? (
        <Editor
          key={releaseId ?? 'working copy'}
          ct={ct}
          settings={settings.data!}
          initial={loaded.data.entry}
          initialEtag={loaded.data.etag}
          variant={variant}
          releaseId={releaseId}
        />
      ) : (
        <NewEntry ct={ct} settings={settings.data!} />
      )}
    </FieldSourcesContext.Provider>
  );
}

/** A new entry: fill in what you have, then "Create" makes the draft and opens it for editing. */
function NewEntry({ ct, settings }: { ct: ContentType; settings: WorkspaceSettings }) {
  const { workspace, can } = useWorkspace();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const [draft, setDraft] = useState<Draft>({ data: {}, translations: {} });
  const [slug, setSlug] = useState('');
  const [locale, setLocale] = useState(settings.default_locale);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const mapped = mapErrors(
    error instanceof ApiError ? error.errors : null,
    settings.default_locale,
    ct.fields.map((f) => f.name),
  );
  const create = async () => {
    setBusy(true);
    setError(null);
    try {
      const { entry } = await createEntry(ct.slug, { slug: slug.trim() || undefined, data: draft.data, translations: draft.translations });
      await invalidate('entries', ct.slug);
      void navigate(`/${workspace.slug}/content/${ct.slug}/${entry.slug}`, { replace: true });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  if (!can('content:write')) return <ErrorAlert error={new Error('Your role cannot create entries.')} title="Read-only" />;
  return (
    <Stack>
      <PageHeader
        title={`New ${ct.name}`}
        description={
          <Anchor component={Link} to={`/${workspace.slug}/content/${ct.slug}`} size="sm">
            ← All {ct.name} entries
          </Anchor>
        }
        actions={
          <Button onClick={() => void create()} loading={busy}>
            Create entry
          </Button>
        }
      />
      <ErrorAlert error={error} title="The entry could not be created" />
      <LocaleSwitch settings={settings} locale={locale} onChange={setLocale} />
      <TextInput
        label="Slug"
        description="Optional: derived from the display field when left empty"
        value={slug}
        onChange={(e) => setSlug(e.currentTarget.value)}
        error={error instanceof ApiError ? error.errors?.find((e) => e.path === 'body.slug')?.message : undefined}
        maw={480}
      />
      <EntryForm
        fields={ct.fields}
        draft={draft}
        locale={locale}
        defaultLocale={settings.default_locale}
        readOnly={false}
        errors={mapped.byField}
        revision={0}
        onChange={(l, name, value) =>
          setDraft((d) =>
            l === settings.default_locale
              ? { ...d, data: { ...d.data, [name]: value } }
              : { ...d, translations: { ...d.translations, [l]: { ...d.translations[l], [name]: value } } },
          )
        }
      />
    </Stack>
  );
}

function Editor({
  ct,
  settings,
  initial,
  initialEtag,
  variant,
  releaseId,
}: {
  ct: ContentType;
  settings: WorkspaceSettings;
  initial: Entry;
  initialEtag: string | null;
  variant: ReleaseVariant;
  /** the release whose version this editor shows and writes; null: the working copy */
  releaseId: string | null;
}) {
  const { workspace, can } = useWorkspace();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const client = useQueryClient();
  const key = useWsKey();
  const [entry, setEntry] = useState(initial);
  const [draft, setDraft] = useState<Draft>(() => draftOf(initial));
  const [revision, setRevision] = useState(0);
  const [locale, setLocale] = useState(settings.default_locale);
  const previewTarget = useMemo(() => ({ kind: 'entry' as const, id: entry.id, type: ct.slug, slug: entry.slug }), [entry.id, ct.slug, entry.slug]);
  const live = useLivePreviewPane({
    target: previewTarget,
    locale,
    // A site's preview shows working copies; the built-in preview shows the release version in the form.
    template: releaseId ? null : settings.preview_url_template,
    builtinNote: releaseId
      ? 'Quire’s own rendering of the release version in the form. Your site’s preview shows working copies, so it is not used in a release perspective.'
      : undefined,
    savedAt: entry.updated_at,
    mint: () => mintPreviewToken(entry.id),
    // A click on content in the site's preview (D141): this entry's field, or another item's editor.
    onEdit: (edit) => onEdit(edit),
    builtin: (
      <BuiltinPreview
        title={displayValue({ ...entry, data: JSON.stringify(draft.data) }, ct)}
        locale={locale}
        defaultLocale={settings.default_locale}
        fields={ct.fields}
        values={draft}
      />
    ),
  });
  // What the role may change in this type, shown ahead (D120); the server checks every save again.
  const limits = workspace.permissions ? entryWriteLimits(workspace.permissions as Permission[], ct.slug) : null;
  const localeWritable = !limits || limits.locales === null || limits.locales.includes(locale);
  const canWrite = can('content:write') && !variant.readOnly && (limits === null || limits.canUpdate);
  const canPublish = can('content:publish') && !releaseId;
  const fieldNames = ct.fields.map((f) => f.name);
  // Comments on fields, who else is here, and others' changes (docs/studio.md "Comments, notifications and who else is here").
  const collab = useItemCollab({
    kind: 'entry',
    id: entry.id,
    path: entryPath(ct.slug, initial.slug),
    what: 'entry',
    locale,
    enabled: !releaseId,
    onReload: () => void reload(),
    onRefresh: () => void refresh(),
    etag: () => autosave.etag(),
  });
  // The review workflow (D130): its panel beside the status bar, and Publish held back outside its publish stage.
  const workflows = useWorkflows();
  const workflowState = releaseId ? null : workflowOf(entry);

  const save = useCallback((d: Draft, etag: string | null) => saveEntry(ct.slug, initial.slug, d, etag, releaseId), [ct.slug, initial.slug, releaseId]);
  // The preview hears of a save before this editor re-renders for it (useLivePreviewPane).
  const { saved: previewSaved } = live;
  const onSaved = useCallback(
    ({ entry: e }: { entry: Entry }) => {
      previewSaved(e.updated_at);
      setEntry((prev) => withWorkflowAfterSave(e, prev));
      void invalidate('entries', ct.slug);
    },
    [invalidate, ct.slug, previewSaved],
  );
  const autosave = useAutosave(save, initialEtag, onSaved, live.pane ? PREVIEW_AUTOSAVE_DELAY_MS : AUTOSAVE_DELAY_MS);
  const actions = useStatusActions(autosave, {
    changeState: (verb, etag, publishAt) => changeState(ct.slug, initial.slug, verb, etag, publishAt),
    refresh: () => refresh(),
    duplicate: async () => {
      const copy = await duplicateEntry(ct.slug, initial.slug);
      await invalidate('entries', ct.slug);
      void navigate(`/${workspace.slug}/content/${ct.slug}/${copy.slug}`);
    },
    remove: async (etag) => {
      await deleteEntry(ct.slug, initial.slug, etag);
      await invalidate('entries', ct.slug);
      client.removeQueries({ queryKey: key('entry', ct.slug, initial.slug) });
      void navigate(`/${workspace.slug}/content/${ct.slug}`, { replace: true });
    },
    preview: async () => {
      // Without a template: the built-in preview, in the live preview pane.
      if (!settings.preview_url_template) return live.show();
      const token = await mintPreviewToken(entry.id);
      const url = previewUrl(settings.preview_url_template, { type: ct.slug, slug: entry.slug, id: entry.id, locale, token: token.token });
      if (url) window.open(url, '_blank', 'noopener');
    },
  });
  const { busy, dialog, setDialog, act, onAction, error: actionError, setError: setActionError } = actions;

  // What a publish would change: the working copy against the live version (all of it when none is live).
  const liveVersion = entry.status === 'published' ? entry.published_version : null;
  const liveRecord = useQuery({
    queryKey: key('version', ct.slug, initial.slug, liveVersion),
    queryFn: () => getVersion(ct.slug, initial.slug, liveVersion!),
    enabled: dialog === 'publish' && liveVersion !== null,
  });
  const liveBase: Draft | null = liveVersion === null ? { data: {}, translations: {} } : liveRecord.data ? draftOf(liveRecord.data.entry) : null;
  const liveChanges =
    dialog === 'publish' && liveBase
      ? diffDrafts(ct.fields, settings.locales, settings.default_locale, liveBase, draft).map((r) => ({ what: r.label, locale: r.locale, kind: r.kind }))
      : null;
  const saveErrors = autosave.error instanceof ApiError ? autosave.error.errors : null;
  const actionErrors = actionError instanceof ApiError ? actionError.errors : null;
  const mapped = mapErrors([...(saveErrors ?? []), ...(actionErrors ?? [])], settings.default_locale, fieldNames);

  const change = (l: string, name: string, value: unknown) => {
    const next: Draft =
      l === settings.default_locale
        ? { ...draft, data: { ...draft.data, [name]: value } }
        : { ...draft, translations: { ...draft.translations, [l]: { ...draft.translations[l], [name]: value } } };
    setDraft(next);
    autosave.change(next);
    // A refused publish named fields of the old values; the next save checks the new ones.
    if (actionErrors?.length) setActionError(null);
  };

  /** Takes the server's copy: after a reload, a restore or a conflict. */
  const adopt = (e: Entry, etag: string | null) => {
    setEntry(e);
    setDraft(draftOf(e));
    setRevision((r) => r + 1);
    autosave.reset(etag);
  };
  const reload = async () => {
    setActionError(null);
    const fresh = await getEntry(ct.slug, initial.slug, releaseId);
    adopt(fresh.entry, fresh.etag);
  };
  const refresh = async () => {
    const fresh = await getEntry(ct.slug, initial.slug, releaseId);
    setEntry(fresh.entry);
    autosave.setEtag(fresh.etag);
    await invalidate('entries', ct.slug);
  };

  const restore = async (version: number) => {
    await autosave.flush().catch(() => {});
    const res = await restoreVersion(ct.slug, initial.slug, version, autosave.etag());
    adopt(res.entry, res.etag);
    await invalidate('entries', ct.slug);
    notifications.show({ message: `Version ${version} restored to the working copy`, color: 'green' });
  };

  const conflict = autosave.state === 'conflict' || (actionError instanceof ApiError && actionError.status === 412);
  const title = displayValue({ ...entry, data: JSON.stringify(draft.data) }, ct);
  const releaseTarget = { kind: 'entry' as const, id: entry.id, slug: entry.slug, type: ct.slug, title: `“${title}”` };
  const otherErrors = mapped.other;
  const targets = fieldTargets(mapped.byField, ct.fields, settings.default_locale);

  // Going to a refused field: its locale shown, then the field focused (field-errors.ts).
  const [goal, setGoal] = useState<ErrorTarget | null>(null);
  const goTo = (target: ErrorTarget) => {
    setLocale(target.locale);
    setGoal({ ...target });
  };
  useEffect(() => (goal ? revealTarget(goal) : undefined), [goal]);
  const onEdit = useEditRequests({
    locales: settings.locales,
    defaultLocale: settings.default_locale,
    goTo,
    owns: (edit) => edit.kind === 'entry' && edit.id === entry.id,
  });
  // A refused publish (or schedule) takes the editor to the first refused field at once, once per refusal.
  const [seenRefusal, setSeenRefusal] = useState<unknown>(null);
  if (actionError !== seenRefusal) {
    setSeenRefusal(actionError);
    if (actionErrors?.length && targets[0]) goTo(targets[0]);
  }

  return (
    <Stack>
      <PageHeader
        title={title}
        description={
          <Group gap="xs" component="span">
            <Anchor component={Link} to={`/${workspace.slug}/content/${ct.slug}`} size="sm">
              ← All {ct.name} entries
            </Anchor>
            <Text span size="sm" c="dimmed">
              Slug <Code>{entry.slug}</Code>
            </Text>
          </Group>
        }
        actions={
          <>
            {collab.header}
            {live.toggle}
          </>
        }
      />
      <ReleaseBanner variant={variant} target={releaseTarget} />
      {conflict ? null : collab.notice}
      {conflict ? <ConflictAlert what="entry" onReload={() => void reload()} /> : null}
      {!conflict && autosave.state === 'error' && !saveErrors?.length ? <ErrorAlert error={autosave.error} title="Your changes could not be saved" /> : null}
      {!conflict && actionError && !(actionErrors?.length && !otherErrors.length) ? <ErrorAlert error={actionError} title="The action failed" /> : null}
      {otherErrors.length && !actionError ? (
        <ErrorAlert error={new ApiError(400, 'VALIDATION_FAILED', 'Validation failed', otherErrors, null)} title="Some values were refused" />
      ) : null}
      <FieldErrorsAlert targets={targets} onGo={goTo} />
      <EditorColumns
        showForm={goal}
        main={
          <Stack>
            <LocaleSwitch settings={settings} locale={locale} onChange={setLocale} writable={limits?.locales ?? null} />
            <CommentsContext.Provider value={collab.scope}>
              <EntryForm
                fields={ct.fields}
                draft={draft}
                locale={locale}
                defaultLocale={settings.default_locale}
                readOnly={!canWrite || !localeWritable}
                readOnlyFields={limits?.readOnlyFields}
                errors={mapped.byField}
                revision={revision}
                onChange={change}
              />
            </CommentsContext.Provider>
          </Stack>
        }
        side={
          <>
            <StatusActions
              item={entry}
              saveState={autosave.state}
              canPublish={canPublish}
              canWrite={canWrite}
              busy={busy}
              onAction={onAction}
              withPreview={!releaseId}
              publishBlocked={publishBlockedReason(workflowState, workflows.data)}
            />
            {workflowState ? (
              <LazyWorkflowBar
                state={workflowState}
                item={entryPath(ct.slug, initial.slug)}
                canWrite={canWrite}
                flush={() => autosave.flush()}
                onChange={(w) => setEntry((e) => ({ ...e, workflow: w }))}
              />
            ) : null}
            <ReleaseActions target={releaseTarget} status={entry.status} />
            {releaseId ? null : (
              <VersionHistory
                type={ct.slug}
                slug={initial.slug}
                fields={ct.fields}
                locales={settings.locales}
                defaultLocale={settings.default_locale}
                publishedVersion={entry.published_version}
                current={draft}
                stamp={entry.updated_at + entry.status}
                canRestore={canWrite}
                onRestore={restore}
              />
            )}
          </>
        }
        preview={live.pane}
      />
      <ConfirmDialog
        opened={dialog === 'delete'}
        onClose={() => setDialog(null)}
        title={`Delete “${title}”?`}
        confirmLabel="Delete entry"
        onConfirm={() => act('delete')}
      >
        The entry, its translations and its history are deleted for good; relations pointing at it resolve to nothing.
      </ConfirmDialog>
      <PublishDialog
        opened={dialog === 'publish'}
        title={`“${title}”`}
        live={liveVersion !== null}
        changes={liveChanges}
        loadError={liveRecord.error}
        confirmLabel={entry.status === 'published' ? 'Publish changes' : 'Publish'}
        onClose={() => setDialog(null)}
        onPublish={actions.confirmPublish}
      />
      <LazyScheduleDialog opened={dialog === 'schedule'} onClose={() => setDialog(null)} what={`“${title}”`} onSchedule={(at) => act('schedule', at)} />
    </Stack>
  );
}
