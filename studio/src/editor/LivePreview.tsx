/**
 * The live preview beside the entry and page editors (docs/studio.md "Live preview"): the
 * workspace's preview URL template filled in for the item and the editor's locale, with a
 * preview token (minted once per item and kept until an hour before its 48 hours run out), in a
 * frame. After each autosave the pane refreshes the front end within a second: the editor calls
 * the pane hook's `saved(updated_at)` as the save's answer arrives, before it re-renders (a change
 * of `savedAt` after any other reload does the same):
 * a front end that announced it listens (preview-protocol.ts) gets the `quire:update` event and
 * swaps its content in place; any other is reloaded. A listening front end that does not confirm
 * within 3 s is reloaded too. Without a template the pane shows the built-in preview
 * (BuiltinPreview.tsx: the form's current values, updated as the user types) and says where a
 * template is set; with one, a switch in the header shows the built-in preview instead, and a
 * front end that has not said it listens (after loading, or 3 s) gets a line saying the site may
 * not be running, with that switch in one click.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Link } from 'react-router';
import { ActionIcon, Alert, Anchor, Button, Grid, Group, Paper, SegmentedControl, Stack, Tabs, Text, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconExternalLink, IconRefresh, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useWsKey } from '../app/queries';
import { useWorkspace } from '../app/workspace';
import { ErrorAlert } from '../components/ErrorAlert';
import { Loading } from '../components/Loading';
import { LivePreviewToggle } from './LivePreviewToggle';
import { previewUrl, readFrontEndMessage, updateMessage, type EditRequest, type PreviewTarget } from './preview-protocol';

const OPEN_KEY = 'quire:live-preview';
/** A token is renewed an hour before it expires, so a long editing session never shows a 401. */
const RENEW_BEFORE_MS = 3600_000;
const CONFIRM_TIMEOUT_MS = 3000;

/** Whether the live preview is open; remembered in the browser across editors and reloads. */
export function useLivePreviewOpen(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(() => {
    try {
      return window.localStorage.getItem(OPEN_KEY) === '1';
    } catch {
      return false;
    }
  });
  const set = useCallback((next: boolean) => {
    setOpen(next);
    try {
      window.localStorage.setItem(OPEN_KEY, next ? '1' : '0');
    } catch {
      // Storage may be off (private mode); the choice then lasts for this editor only.
    }
  }, []);
  return [open, set];
}

type PaneState = { mode: 'loading' | 'listening' | 'reloading' | 'static'; updatedAt: Date | null };

export interface LivePreviewProps {
  target: PreviewTarget;
  locale: string;
  template: string | null;
  /** the saved working copy's `updated_at`: a change means an autosave landed */
  savedAt: string;
  mint: () => Promise<{ token: string; expires_at: string }>;
  /** the built-in preview of the working copy (BuiltinPreview), shown without a template or on demand */
  builtin: ReactNode;
  /** with no template: said above the built-in preview instead of where a template is set (a release version, which a site's preview cannot show) */
  builtinNote?: string;
  onClose: () => void;
  /** a click on content in the framed page (`quire:edit`, D141): the editor goes to that field */
  onEdit?: (edit: EditRequest) => void;
  /** where the pane puts its announcer of a save (useLivePreviewPane's `saved`) */
  announcerRef?: RefObject<((savedAt: string) => void) | null>;
}

export function LivePreview({ target, locale, template, savedAt, mint, builtin, builtinNote, onClose, onEdit, announcerRef }: LivePreviewProps) {
  const key = useWsKey();
  const { workspace, administers } = useWorkspace();
  // With a template, the editor may still choose the built-in preview (e.g. while the site is down).
  const [chosenBuiltin, setChosenBuiltin] = useState(false);
  const showBuiltin = !template || chosenBuiltin;
  const token = useQuery({
    queryKey: key('preview-token', target.kind, target.id),
    queryFn: mint,
    enabled: !!template && !chosenBuiltin,
    staleTime: (q) => (q.state.data ? Math.max(0, Date.parse(q.state.data.expires_at) - Date.now() - RENEW_BEFORE_MS) : 0),
    retry: false,
  });
  const frame = useRef<HTMLIFrameElement>(null);
  const [reloads, setReloads] = useState(0);
  const [width, setWidth] = useState<'full' | 'phone'>('full');
  const [state, setState] = useState<PaneState>({ mode: 'loading', updatedAt: null });
  /** the origin that said it listens, and a pending confirmation's timer */
  const listener = useRef<{ origin: string | null; timer: ReturnType<typeof setTimeout> | null }>({ origin: null, timer: null });
  const url =
    token.data && !showBuiltin ? previewUrl(template, { type: target.type, slug: target.slug, id: target.id, locale, token: token.data.token }) : null;

  const reload = useCallback(() => {
    listener.current.origin = null;
    setState((s) => ({ ...s, mode: 'reloading' }));
    setReloads((n) => n + 1);
  }, []);

  const editRef = useRef(onEdit);
  useEffect(() => {
    editRef.current = onEdit;
  });
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (!frame.current || event.source !== frame.current.contentWindow) return;
      const message = readFrontEndMessage(event.data);
      if (!message) return;
      if (message.type === 'quire:edit') {
        editRef.current?.(message);
      } else if (message.type === 'quire:preview-ready') {
        listener.current.origin = event.origin;
        setState((s) => ({ ...s, mode: 'listening' }));
      } else {
        if (listener.current.timer) clearTimeout(listener.current.timer);
        listener.current.timer = null;
        setState({ mode: 'listening', updatedAt: new Date() });
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);
  useEffect(() => () => void (listener.current.timer && clearTimeout(listener.current.timer)), []);

  // After each autosave: the update event to a listening front end, a reload otherwise. The editor
  // announces a save as its answer arrives: re-rendering a long page editor takes 100-200 ms, and
  // the framed site (same site, so the same renderer thread) would only start its fetch after it.
  const announced = useRef(savedAt);
  const current = useRef({ target, locale });
  useEffect(() => {
    current.current = { target, locale };
  });
  const announce = useCallback(
    (at: string) => {
      if (at === announced.current) return;
      announced.current = at;
      const win = frame.current?.contentWindow;
      const origin = listener.current.origin;
      if (!win || !origin) {
        reload();
        return;
      }
      win.postMessage(updateMessage(current.current.target, current.current.locale, at), origin);
      if (listener.current.timer) clearTimeout(listener.current.timer);
      listener.current.timer = setTimeout(reload, CONFIRM_TIMEOUT_MS);
    },
    [reload],
  );
  useEffect(() => {
    if (!announcerRef) return;
    announcerRef.current = announce;
    return () => {
      if (announcerRef.current === announce) announcerRef.current = null;
    };
  }, [announcerRef, announce]);
  useEffect(() => announce(savedAt), [savedAt, announce]);

  // The Studio may not reach the front end itself (its connect-src is its own origin), and a frame
  // loads an error page like any other: a front end that has not said it listens within 3 s may be
  // down, and the pane says so beside the switch to the built-in preview.
  const [waited, setWaited] = useState<string | null>(null);
  const attempt = url ? `${url}#${reloads}` : null;
  useEffect(() => {
    if (!attempt) return;
    const timer = setTimeout(() => setWaited(attempt), CONFIRM_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [attempt]);
  const unsure = !!url && state.mode !== 'listening' && (state.mode === 'static' || waited === attempt);
  let body: ReactNode;
  const sized = (node: ReactNode) => <div style={{ width: width === 'phone' ? 390 : '100%', maxWidth: '100%', margin: '0 auto' }}>{node}</div>;
  if (chosenBuiltin) {
    body = sized(builtin);
  } else if (!template && builtinNote) {
    body = (
      <Stack gap="sm">
        <Alert color="gray" title="Built-in preview">
          <Text size="sm">{builtinNote}</Text>
        </Alert>
        {sized(builtin)}
      </Stack>
    );
  } else if (!template) {
    body = (
      <Stack gap="sm">
        <Alert color="gray" title="Built-in preview">
          <Text size="sm">
            This is Quire&apos;s own rendering of the working copy. To see your front end here instead, set the workspace&apos;s preview URL template
            {administers ? (
              <>
                {' '}
                in {/* indigo 9: 4.5:1 and more on the alert's grey (indigo 7 gives 4.47:1) */}
                <Anchor component={Link} to={`/${workspace.slug}/settings/general`} c="indigo.9" underline="always">
                  Settings → General
                </Anchor>
              </>
            ) : (
              ' (an owner or admin sets it in Settings → General)'
            )}
            , for example{' '}
            <code>
              https://your-site/api/preview?type={'{type}'}&amp;slug={'{slug}'}&amp;locale={'{locale}'}&amp;token={'{token}'}
            </code>
            .
          </Text>
        </Alert>
        {sized(builtin)}
      </Stack>
    );
  } else if (token.error) {
    body = <ErrorAlert error={token.error} title="The preview token could not be minted" />;
  } else if (!url) {
    body = <Loading label="Opening the preview" />;
  } else {
    body = (
      <iframe
        key={`${url}#${reloads}`}
        ref={frame}
        src={url}
        title={`Live preview of ${target.slug}`}
        data-preview-frame
        onLoad={() =>
          setState((s) => (s.mode === 'listening' ? s : { mode: listener.current.origin ? 'listening' : 'static', updatedAt: s.updatedAt ?? new Date() }))
        }
        // The front end may run its scripts, forms and popups, but never navigate the Studio away.
        sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
        style={{
          border: 0,
          width: width === 'phone' ? 390 : '100%',
          maxWidth: '100%',
          height: '100%',
          background: 'white',
          display: 'block',
          margin: '0 auto',
        }}
      />
    );
  }

  const status = showBuiltin
    ? 'Built-in preview: follows your typing'
    : state.mode === 'listening'
      ? `Live: updates in place${state.updatedAt ? `, last at ${state.updatedAt.toLocaleTimeString()}` : ''}`
      : state.mode === 'static'
        ? 'Reloads after each save (the front end does not listen for updates)'
        : state.mode === 'reloading'
          ? 'Reloading…'
          : 'Loading…';
  return (
    <Paper
      withBorder
      radius="md"
      p={0}
      style={{ position: 'sticky', top: 72, height: 'calc(100vh - 96px)', minHeight: 420, display: 'flex', flexDirection: 'column' }}
    >
      <Group justify="space-between" gap="xs" p="xs" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="sm" fw={600}>
            Live preview
          </Text>
          <Text size="xs" c="dimmed" truncate data-preview-state={showBuiltin ? 'builtin' : state.mode} aria-live="polite">
            {status}
          </Text>
        </Stack>
        <Group gap={4} wrap="nowrap">
          {template ? (
            <SegmentedControl
              size="xs"
              value={chosenBuiltin ? 'builtin' : 'site'}
              onChange={(v) => {
                setChosenBuiltin(v === 'builtin');
                // Back to the site: a fresh frame, which has yet to say whether it listens.
                if (v === 'site') reload();
              }}
              data={[
                { value: 'site', label: 'Site' },
                { value: 'builtin', label: 'Built-in' },
              ]}
              aria-label="What the preview shows"
            />
          ) : null}
          <SegmentedControl
            visibleFrom="sm"
            size="xs"
            value={width}
            onChange={(v) => setWidth(v === 'phone' ? 'phone' : 'full')}
            data={[
              { value: 'full', label: 'Full' },
              { value: 'phone', label: 'Phone' },
            ]}
            aria-label="Preview width"
          />
          <Tooltip label="Reload the preview">
            <ActionIcon variant="subtle" aria-label="Reload the preview" onClick={reload} disabled={!url}>
              <IconRefresh size={16} />
            </ActionIcon>
          </Tooltip>
          {url ? (
            <Tooltip label="Open in a new tab">
              <ActionIcon component="a" href={url} target="_blank" rel="noopener noreferrer" variant="subtle" aria-label="Open the preview in a new tab">
                <IconExternalLink size={16} />
              </ActionIcon>
            </Tooltip>
          ) : null}
          <Tooltip label="Close the live preview">
            <ActionIcon variant="subtle" aria-label="Close the live preview" onClick={onClose}>
              <IconX size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      {unsure && url ? (
        <Alert color="yellow" radius={0} p="xs" data-site-unsure>
          <Group gap="xs" justify="space-between">
            <Text size="xs" c="dark.9">
              A blank page or an error? The front end at {new URL(url).origin} may not be running: start it, or
            </Text>
            <Button size="compact-xs" onClick={() => setChosenBuiltin(true)}>
              Use the built-in preview
            </Button>
          </Group>
        </Alert>
      ) : null}
      <div style={{ flex: 1, minHeight: 0, overflow: 'auto', padding: url ? 0 : 12, background: 'var(--mantine-color-gray-light)' }}>{body}</div>
    </Paper>
  );
}

/**
 * The live preview of an editor: the header's toggle and, while it is open, the pane (for
 * EditorColumns' `preview`), `show` to open it ("Open preview" without a template), and `saved`,
 * which the editor calls with the working copy's new `updated_at` as an autosave's answer arrives
 * (before its own state changes), so the front end refreshes while the editor re-renders. The open
 * state is remembered in the browser (useLivePreviewOpen).
 */
export function useLivePreviewPane(props: Omit<LivePreviewProps, 'onClose' | 'announcerRef'>): {
  toggle: ReactNode;
  pane: ReactNode | null;
  show: () => void;
  saved: (updatedAt: string) => void;
} {
  const [open, setOpen] = useLivePreviewOpen();
  const announcerRef = useRef<((savedAt: string) => void) | null>(null);
  const saved = useCallback((updatedAt: string) => announcerRef.current?.(updatedAt), []);
  return {
    show: () => setOpen(true),
    saved,
    toggle: <LivePreviewToggle open={open} onChange={setOpen} />,
    pane: open ? <LivePreview {...props} announcerRef={announcerRef} onClose={() => setOpen(false)} /> : null,
  };
}

/** Below this width the live preview is a tab beside the form instead of a column. */
export const PREVIEW_TAB_QUERY = '(max-width: 899.98px)';

/**
 * The editor's columns: without a preview the form (8/12) beside the status and history (4/12);
 * with one, the status, history and form on the left and the preview on the right on wide screens
 * (≥ 1200 px), one above the other from 900 px, and below 900 px (a phone) two tabs, **Edit** and
 * **Preview**: Preview is chosen when the preview is opened, Edit when an editor opens with the
 * preview remembered open or when `showForm` changes (an editor going to a refused field: the
 * field can only be focused once its tab shows it, docs/studio.md "Errors"). The form stays
 * mounted behind its tab while the tabs switch.
 */
export function EditorColumns({
  main,
  side,
  preview,
  showForm = null,
}: {
  main: ReactNode;
  side: ReactNode;
  preview: ReactNode | null;
  /** a new value (any but null) whenever the form must be on screen */
  showForm?: unknown;
}) {
  const narrow = useMediaQuery(PREVIEW_TAB_QUERY, false, { getInitialValueInEffect: false });
  // The form first when an editor opens with the preview remembered open; the preview when it is opened.
  const [tab, setTab] = useState<string | null>('edit');
  const open = preview !== null;
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setTab('preview');
  }
  // Switched during render, so the Edit panel is displayed before the editor's effect looks for the field.
  const [shown, setShown] = useState(showForm);
  if (showForm !== shown) {
    setShown(showForm);
    if (showForm !== null) setTab('edit');
  }
  if (preview && narrow) {
    return (
      <Tabs value={tab} onChange={setTab} keepMounted>
        <Tabs.List grow aria-label="Editor or live preview">
          <Tabs.Tab value="edit">Edit</Tabs.Tab>
          <Tabs.Tab value="preview">Preview</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="edit" pt="md">
          <Stack>
            {side}
            {main}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="preview" pt="md">
          {preview}
        </Tabs.Panel>
      </Tabs>
    );
  }
  if (!preview) {
    return (
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>{main}</Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack style={{ position: 'sticky', top: 72 }}>{side}</Stack>
        </Grid.Col>
      </Grid>
    );
  }
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, lg: 6 }}>
        <Stack>
          {side}
          {main}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 6 }}>{preview}</Grid.Col>
    </Grid>
  );
}
