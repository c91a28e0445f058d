/**
 * The page editor (route /studio/:workspace/pages/:slug; docs/pages.md). Its working copy is the
 * page's SEO, SEO translations and block tree with block translations; edits autosave it (PUT of
 * the whole tree with ids and If-Match, ~1 s after the last change; a 412 says someone else saved
 * first and offers a reload), as the entry editor does, with the same status bar (publish or
 * publish changes, unpublish, archive, schedule, duplicate, delete), locale switcher and history
 * (a version's differences: SEO values, blocks added, removed, moved or changed; restore).
 * The slug is an attribute of the page, renamed at once with "Rename". API errors land on their
 * SEO field or block field (`blocks.0.children.1.data.title`). Comment buttons sit beside the
 * heading (`title`), the slug (`slug`), each SEO value and each block field.
 */
import '@mantine/dates/styles.css';
import '@mantine/tiptap/styles.css';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Anchor, Button, Code, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import type { ContentType, Page, Version } from '../../api/types';
import { useContentTypes, useWorkspaceSettings, useWsKey, type WorkspaceSettings } from '../../app/queries';
import { useWorkspace } from '../../app/workspace';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { AUTOSAVE_DELAY_MS, PREVIEW_AUTOSAVE_DELAY_MS, useAutosave } from '../../editor/autosave';
import { LocaleSwitch } from '../../editor/LocaleSwitch';
import { LazyScheduleDialog } from '../../editor/LazyScheduleDialog';
import { ConflictAlert, useStatusActions } from '../../editor/actions';
import { StatusActions } from '../../editor/StatusActions';
import { EditorColumns, useLivePreviewPane } from '../../editor/LivePreview';
import { revealTarget, type ErrorTarget } from '../../editor/field-errors';
import { useEditRequests } from '../../editor/edit-requests';
import { FieldErrorsAlert } from '../../editor/FieldErrorsAlert';
import { PublishDialog } from '../../editor/PublishDialog';
import { previewUrl } from '../../editor/preview-protocol';
import { BuiltinPreview } from '../../editor/BuiltinPreview';
import { previewBlocks } from '../../editor/builtin-preview';
import { useRestore, VersionDialog, VersionList } from '../../editor/VersionHistory';
import { ReleaseActions, ReleaseBanner, useReleaseVariant, type ReleaseVariant } from '../../editor/ReleaseEditing';
import { LazyWorkflowBar } from '../../editor/LazyWorkflowBar';
import { publishBlockedReason, withWorkflowAfterSave, workflowOf } from '../../editor/workflow-state';
import { useWorkflows } from '../../api/workflows';
import { useItemCollab } from '../../editor/collab/ItemCollab';
import { CommentsContext } from '../../editor/comments/context';
import { FieldCommentButton } from '../../editor/comments/FieldComments';
import { apiFieldSources } from '../../fields/api-sources';
import { FieldSourcesContext } from '../../fields/sources';
import {
  changePageState,
  deletePage,
  duplicatePage,
  getPage,
  getPageVersion,
  listPageVersions,
  pageTitle,
  mintPagePreviewToken,
  pagePath,
  pageOf,
  restorePageVersion,
  savePage,
  type PageWithTag,
  type SavedPage,
} from './api';
import { BlockTree, blockLabel } from './BlockTree';
import { diffPages } from './diff';
import { blockLineage, pageErrorTargets } from './page-errors';
import { SeoPanel, seoErrorKey } from './SeoPanel';
import { draftOfPage, EMPTY_SEO, errorsByBlock, type BlockNode, type PageDraft, type SeoKey } from './tree';

export default function PageEditorScreen() {
  const { slug = '' } = useParams();
  const types = useContentTypes();
  const settings = useWorkspaceSettings();
  const key = useWsKey();
  // In a release perspective a page the release publishes opens its release version (docs/studio.md "Releases").
  const variant = useReleaseVariant({ kind: 'page', slug });
  const releaseId = variant.releaseId;
  const loaded = useQuery({
    queryKey: key('page', slug, releaseId),
    queryFn: () => getPage(slug, releaseId),
    enabled: !variant.perspective.pending,
    staleTime: 0,
    gcTime: 0,
  });
  const { can } = useWorkspace();
  const canUpload = can('media:write');
  const sources = useMemo(() => apiFieldSources({ canUpload }), [canUpload]);
  const error = types.error ?? settings.error ?? loaded.error;
  if (error) return <ErrorAlert error={error} title="The page could not be loaded" />;
  if (types.isPending || settings.isPending || variant.perspective.pending || loaded.isPending) return <Loading label="Loading page" />;
  return (
    <FieldSourcesContext.Provider value={sources}>
      <Editor
        key={releaseId ?? 'working copy'}
        blockTypes={(types.data ?? []).filter((t) => t.is_block)}
        settings={settings.data!}
        initial={loaded.data!}
        variant={variant}
        releaseId={releaseId}
      />
    </FieldSourcesContext.Provider>
  );
}

function RenameDialog({ slug, onClose, onRename }: { slug: string; onClose: () => void; onRename: (slug: string) => Promise<void> }) {
  const [value, setValue] = useState(slug);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await onRename(value.trim());
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  const fieldError = error instanceof ApiError ? error.errors?.find((e) => e.path === 'body.slug')?.message : undefined;
  return (
    <Modal opened onClose={onClose} title="Rename the page" centered>
      <Stack>
        <Text size="sm">The new address applies at once, also for readers of the published page; links to the old slug stop working.</Text>
        <TextInput label="Slug" value={value} onChange={(e) => setValue(e.currentTarget.value)} error={fieldError} data-autofocus />
        {!fieldError ? <ErrorAlert error={error} title="The page was not renamed" /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} loading={busy} disabled={!value.trim() || value.trim() === slug}>
            Rename
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function PageVersionDialog(props: {
  slug: string;
  version: number;
  record: Version | undefined;
  current: PageDraft;
  settings: WorkspaceSettings;
  blockTypes: ContentType[];
  canRestore: boolean;
  onRestore: (version: number) => Promise<void>;
  onClose: () => void;
}) {
  const key = useWsKey();
  const { busy, error, restore } = useRestore(props.onRestore, props.version, props.onClose);
  const q = useQuery({ queryKey: key('page-version', props.slug, props.version), queryFn: () => getPageVersion(props.slug, props.version) });
  const typeOf = (slug: string) => props.blockTypes.find((t) => t.slug === slug);
  const rows = q.data
    ? diffPages(draftOfPage(q.data), props.current, {
        defaultLocale: props.settings.default_locale,
        locales: props.settings.locales,
        fieldsOf: (t) => typeOf(t)?.fields ?? [],
        labelOf: (n: BlockNode) => blockLabel(n, typeOf(n.type), 0).replace(/ #0$/, ''),
      }).map((r, i) => ({ ...r, key: `${i}` }))
    : null;
  return (
    <VersionDialog
      version={props.version}
      record={props.record}
      loadError={q.error}
      rows={rows}
      canRestore={props.canRestore}
      busy={busy}
      restoreError={error}
      onRestore={() => void restore()}
      onClose={props.onClose}
    />
  );
}

function Editor({
  blockTypes,
  settings,
  initial,
  variant,
  releaseId,
}: {
  blockTypes: ContentType[];
  settings: WorkspaceSettings;
  initial: PageWithTag;
  variant: ReleaseVariant;
  /** the release whose version this editor shows and writes; null: the working copy */
  releaseId: string | null;
}) {
  const { workspace, can } = useWorkspace();
  const navigate = useNavigate();
  const client = useQueryClient();
  const key = useWsKey();
  const slug = initial.detail.page.slug;
  const [page, setPage] = useState<Page>(() => pageOf(initial.detail));
  const [draft, setDraft] = useState<PageDraft>(() => draftOfPage(initial.detail));
  const [revision, setRevision] = useState(0);
  const [locale, setLocale] = useState(settings.default_locale);
  const [renaming, setRenaming] = useState(false);
  const previewTarget = useMemo(() => ({ kind: 'page' as const, id: page.id, type: 'page', slug }), [page.id, slug]);
  const live = useLivePreviewPane({
    target: previewTarget,
    locale,
    // A site's preview shows working copies; the built-in preview shows the release version in the form.
    template: releaseId ? null : settings.preview_url_template,
    builtinNote: releaseId
      ? 'Quire’s own rendering of the release version in the form. Your site’s preview shows working copies, so it is not used in a release perspective.'
      : undefined,
    savedAt: page.updated_at,
    mint: () => mintPagePreviewToken(page.id),
    // A click on content in the site's preview (D141): this page's field or block, or another item's editor.
    onEdit: (edit) => onEdit(edit),
    builtin: (
      <BuiltinPreview
        title={pageTitle({
          slug,
          seo: { ...page.seo, title: (locale !== settings.default_locale ? draft.seoTranslations[locale]?.title : null) ?? draft.seo.title },
        })}
        locale={locale}
        defaultLocale={settings.default_locale}
        blocks={previewBlocks(draft.blocks, blockTypes)}
      />
    ),
  });
  const canWrite = can('content:write') && !variant.readOnly;
  const canPublish = can('content:publish') && !releaseId;
  // Comments on fields, who else is here, and others' changes (docs/studio.md "Comments, notifications and who else is here").
  const collab = useItemCollab({
    kind: 'page',
    id: page.id,
    path: pagePath(slug),
    what: 'page',
    locale,
    enabled: !releaseId,
    onReload: () => void reload(),
    onRefresh: () => void refresh(),
    etag: () => autosave.etag(),
  });
  // The review workflow (D130): its panel beside the status bar, and Publish held back outside its publish stage.
  const workflows = useWorkflows();
  const workflowState = releaseId ? null : workflowOf(page);
  const invalidateList = useCallback(() => client.invalidateQueries({ queryKey: key('pages') }), [client, key]);

  const save = useCallback((d: PageDraft, etag: string | null) => savePage(slug, d, etag, undefined, releaseId), [slug, releaseId]);
  // The preview hears of a save before this editor re-renders for it (useLivePreviewPane).
  const { saved: previewSaved } = live;
  const onSaved = useCallback(
    ({ page: p }: SavedPage) => {
      previewSaved(p.updated_at);
      setPage((prev) => withWorkflowAfterSave(p, prev));
      void invalidateList();
    },
    [invalidateList, previewSaved],
  );
  const autosave = useAutosave(save, initial.etag, onSaved, live.pane ? PREVIEW_AUTOSAVE_DELAY_MS : AUTOSAVE_DELAY_MS);
  const {
    busy,
    dialog,
    setDialog,
    act,
    onAction,
    confirmPublish,
    error: actionError,
    setError: setActionError,
  } = useStatusActions(autosave, {
    changeState: (verb, etag, publishAt) => changePageState(slug, verb, etag, publishAt),
    refresh: () => refresh(),
    duplicate: async () => {
      const copy = await duplicatePage(slug);
      await invalidateList();
      void navigate(`/${workspace.slug}/pages/${copy.slug}`);
    },
    remove: async (etag) => {
      await deletePage(slug, etag);
      await invalidateList();
      void navigate(`/${workspace.slug}/pages`, { replace: true });
    },
    preview: async () => {
      // Without a template: the built-in preview, in the live preview pane.
      if (!settings.preview_url_template) return live.show();
      const { token } = await mintPagePreviewToken(page.id);
      const url = previewUrl(settings.preview_url_template, { type: 'page', slug, id: page.id, locale, token });
      if (url) window.open(url, '_blank', 'noopener');
    },
  });
  // What a publish would change: the working copy against the live version (all of it when none is live).
  const liveVersion = page.status === 'published' ? (page.published_version ?? null) : null;
  const liveRecord = useQuery({
    queryKey: key('page-version', slug, liveVersion),
    queryFn: () => getPageVersion(slug, liveVersion!),
    enabled: dialog === 'publish' && liveVersion !== null,
  });
  const liveBase: PageDraft | null =
    liveVersion === null ? { seo: EMPTY_SEO, seoTranslations: {}, blocks: [] } : liveRecord.data ? draftOfPage(liveRecord.data) : null;
  const typeOf = (t: string) => blockTypes.find((b) => b.slug === t);
  const liveChanges =
    dialog === 'publish' && liveBase
      ? diffPages(liveBase, draft, {
          defaultLocale: settings.default_locale,
          locales: settings.locales,
          fieldsOf: (t) => typeOf(t)?.fields ?? [],
          labelOf: (n: BlockNode) => blockLabel(n, typeOf(n.type), 0).replace(/ #0$/, ''),
        })
      : null;
  const saveErrors = autosave.error instanceof ApiError ? autosave.error.errors : null;
  const actionErrors = actionError instanceof ApiError ? actionError.errors : null;
  const allErrors = [...(saveErrors ?? []), ...(actionErrors ?? [])];
  const split = errorsByBlock(allErrors, draft.blocks);
  const seoErrors = new Map<string, string>();
  const otherErrors: { path: string; message: string }[] = [];
  for (const e of split.other) {
    const k = seoErrorKey(e.path);
    if (k) seoErrors.set(k, e.message);
    else otherErrors.push(e);
  }

  const edit = (next: PageDraft) => {
    setDraft(next);
    autosave.change(next);
    if (actionErrors?.length) setActionError(null);
  };
  const changeSeo = (l: string, k: SeoKey, value: string | string[] | null) =>
    edit(
      l === settings.default_locale
        ? { ...draft, seo: { ...draft.seo, [k]: value } }
        : { ...draft, seoTranslations: { ...draft.seoTranslations, [l]: { ...draft.seoTranslations[l], [k]: value ?? undefined } } },
    );

  const adopt = (fresh: PageWithTag) => {
    setPage(pageOf(fresh.detail));
    setDraft(draftOfPage(fresh.detail));
    setRevision((r) => r + 1);
    autosave.reset(fresh.etag);
  };
  const reload = async () => {
    setActionError(null);
    adopt(await getPage(slug, releaseId));
  };
  const refresh = async () => {
    const fresh = await getPage(slug, releaseId);
    setPage(pageOf(fresh.detail));
    autosave.setEtag(fresh.etag);
    await invalidateList();
  };

  const rename = async (next: string) => {
    await autosave.flush();
    const res = await savePage(slug, draft, autosave.etag(), next);
    autosave.reset(res.etag);
    await invalidateList();
    notifications.show({ color: 'green', message: `Renamed to ${res.page.slug}` });
    void navigate(`/${workspace.slug}/pages/${res.page.slug}`, { replace: true });
  };

  const restore = async (version: number) => {
    await autosave.flush().catch(() => {});
    const res = await restorePageVersion(slug, version, autosave.etag());
    autosave.setEtag(res.etag);
    adopt(await getPage(slug));
    await invalidateList();
    notifications.show({ message: `Version ${version} restored to the working copy`, color: 'green' });
  };

  const conflict = autosave.state === 'conflict' || (actionError instanceof ApiError && actionError.status === 412);
  const title = pageTitle({ slug, seo: { ...page.seo, title: draft.seo.title } });
  const releaseTarget = { kind: 'page' as const, id: page.id, slug, title: `“${title}”` };
  const targets = pageErrorTargets({
    seoErrors,
    byBlock: split.byBlock,
    blocks: draft.blocks,
    types: blockTypes,
    defaultLocale: settings.default_locale,
    labelOf: (n) =>
      blockLabel(
        n,
        blockTypes.find((t) => t.slug === n.type),
        0,
      ).replace(/ #0$/, ''),
  });

  // Going to a refused field: its locale, its block and the blocks around it opened, then focused.
  const [goal, setGoal] = useState<{ target: ErrorTarget; ids: string[] } | null>(null);
  const goTo = (target: ErrorTarget) => {
    setLocale(target.locale);
    setGoal({ target, ids: target.blockId ? blockLineage(draft.blocks, target.blockId) : [] });
  };
  useEffect(() => (goal ? revealTarget(goal.target) : undefined), [goal]);
  const onEdit = useEditRequests({
    locales: settings.locales,
    defaultLocale: settings.default_locale,
    goTo,
    owns: (edit) => (edit.kind === 'page' && edit.id === page.id) || (edit.kind === 'block' && blockLineage(draft.blocks, edit.id).length > 0),
  });
  // A refused publish (or schedule) takes the editor to the first refused field at once, once per refusal.
  const [seenRefusal, setSeenRefusal] = useState<unknown>(null);
  if (actionError !== seenRefusal) {
    setSeenRefusal(actionError);
    if (actionErrors?.length && targets[0]) goTo(targets[0]);
  }

  return (
    <Stack>
      {/* The page's own title and slug take comments too (`title`, `slug`; not localized: the
          heading shows the default locale's name, and a translation's title is discussed on its SEO title). */}
      <CommentsContext.Provider value={collab.scope}>
        <PageHeader
          title={title}
          titleAside={<FieldCommentButton field="title" label="Page title" localized={false} />}
          description={
            <Group gap="xs" component="span">
              <Anchor component={Link} to={`/${workspace.slug}/pages`} size="sm">
                ← All pages
              </Anchor>
              <Text span size="sm" c="dimmed">
                Slug <Code>{slug}</Code>
              </Text>
              {canWrite && !releaseId ? (
                <Button size="compact-xs" variant="subtle" onClick={() => setRenaming(true)}>
                  Rename
                </Button>
              ) : null}
              <FieldCommentButton field="slug" label="Slug" localized={false} />
            </Group>
          }
          actions={
            <>
              {collab.header}
              {live.toggle}
            </>
          }
        />
      </CommentsContext.Provider>
      <ReleaseBanner variant={variant} target={releaseTarget} />
      {conflict ? null : collab.notice}
      {conflict ? <ConflictAlert what="page" onReload={() => void reload()} /> : null}
      {!conflict && autosave.state === 'error' && !saveErrors?.length ? <ErrorAlert error={autosave.error} title="Your changes could not be saved" /> : null}
      {!conflict && actionError && !actionErrors?.length ? <ErrorAlert error={actionError} title="The action failed" /> : null}
      {otherErrors.length ? (
        <ErrorAlert error={new ApiError(400, 'VALIDATION_FAILED', 'Some values were refused', otherErrors, null)} title="Some values were refused" />
      ) : null}
      <FieldErrorsAlert targets={targets} onGo={goTo} />
      <EditorColumns
        showForm={goal}
        main={
          <Stack>
            <LocaleSwitch settings={settings} locale={locale} onChange={setLocale} />
            <CommentsContext.Provider value={collab.scope}>
              <SeoPanel
                seo={draft.seo}
                translations={draft.seoTranslations}
                locale={locale}
                defaultLocale={settings.default_locale}
                readOnly={!canWrite}
                errors={seoErrors}
                onChange={changeSeo}
              />
              <Title order={2} size="h4">
                Blocks
              </Title>
              <BlockTree
                blocks={draft.blocks}
                types={blockTypes}
                locale={locale}
                defaultLocale={settings.default_locale}
                readOnly={!canWrite}
                revision={revision}
                errors={split.byBlock}
                onChange={(blocks) => edit({ ...draft, blocks })}
                reveal={goal}
              />
            </CommentsContext.Provider>
          </Stack>
        }
        side={
          <>
            <StatusActions
              item={page}
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
                item={pagePath(slug)}
                canWrite={canWrite}
                flush={() => autosave.flush()}
                onChange={(w) => setPage((p) => ({ ...p, workflow: w }))}
              />
            ) : null}
            <ReleaseActions target={releaseTarget} status={page.status} />
            {releaseId ? null : (
              <VersionList
                keyParts={['page', slug]}
                list={(n) => listPageVersions(slug, n)}
                publishedVersion={page.published_version ?? null}
                stamp={page.updated_at + page.status}
                renderVersion={(version, record, close) => (
                  <PageVersionDialog
                    slug={slug}
                    version={version}
                    record={record}
                    current={draft}
                    settings={settings}
                    blockTypes={blockTypes}
                    canRestore={canWrite}
                    onRestore={restore}
                    onClose={close}
                  />
                )}
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
        confirmLabel="Delete page"
        onConfirm={() => act('delete')}
      >
        The page, its blocks, their translations and its history are deleted for good; readers get 404 at its address.
      </ConfirmDialog>
      <PublishDialog
        opened={dialog === 'publish'}
        title={`“${title}”`}
        live={liveVersion !== null}
        changes={liveChanges}
        loadError={liveRecord.error}
        confirmLabel={page.status === 'published' ? 'Publish changes' : 'Publish'}
        onClose={() => setDialog(null)}
        onPublish={confirmPublish}
      />
      <LazyScheduleDialog opened={dialog === 'schedule'} onClose={() => setDialog(null)} what={`“${title}”`} onSchedule={(at) => act('schedule', at)} />
      {renaming ? <RenameDialog slug={slug} onClose={() => setRenaming(false)} onRename={rename} /> : null}
    </Stack>
  );
}
