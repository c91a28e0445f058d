/**
 * The GraphQL explorer's screen (docs/studio.md "GraphQL explorer"; route ApiExplorer.tsx):
 * GraphiQL against the workspace's GraphQL delivery API (`POST /api/v1/public/graphql`). That API takes a
 * delivery key, not the Studio's session, so the screen first asks for one or two keys (production:
 * published content; preview: drafts and unpublished changes too), kept for this workspace in the
 * tab's sessionStorage only (explorer.ts). Owners and admins may create a preview key for the
 * explorer in one click (`POST /api-keys`, delivery, preview, expiring in 7 days). With both keys a
 * toggle switches between what a website and a preview read. The editor itself is the `Pane`
 * prop (GraphiqlPane in the app, a stand-in in component tests, which never load GraphiQL).
 */
import { useMemo, useState, type ComponentType, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Badge, Button, Code, Group, Paper, PasswordInput, SegmentedControl, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { api } from '../../api/client';
import type { ApiKey } from '../../api/types';
import { useContentTypes, useInvalidate } from '../../app/queries';
import { useWorkspace } from '../../app/workspace';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import type { GraphiqlPaneProps } from './GraphiqlPane';
import { activeKey, createFetcher, defaultQuery, GRAPHQL_URL, loadKeys, saveKeys, type ExplorerKeys, type Perspective } from './explorer';

/** How long a key made by "Create a preview key" lives (it is also listed in Settings › API keys). */
const EXPLORER_KEY_DAYS = 7;

export function ExplorerScreen({ Pane }: { Pane: ComponentType<GraphiqlPaneProps> }) {
  const { workspace, administers, session } = useWorkspace();
  const types = useContentTypes();
  const [keys, setKeys] = useState<ExplorerKeys>(() => loadKeys(workspace.id));
  const [editing, setEditing] = useState(false);
  const key = activeKey(keys);
  const fetcher = useMemo(() => (key ? createFetcher(key) : null), [key]);
  const query = useMemo(() => defaultQuery(types.data ?? []), [types.data]);

  const store = (next: ExplorerKeys) => setKeys(saveKeys(workspace.id, next));

  const showing = Boolean(key && !editing);
  return (
    // With GraphiQL showing, the screen fills the window below the header and the editor takes what the title leaves.
    <Stack
      gap={0}
      style={showing ? { height: 'calc(100dvh - var(--app-shell-header-height, 56px) - 2 * var(--mantine-spacing-md))', minHeight: '36rem' } : undefined}
    >
      <PageHeader
        title="GraphQL explorer"
        description={
          <>
            Queries this workspace through the GraphQL delivery API (<Code>{GRAPHQL_URL}</Code>) with a delivery key, as a website does. Docs (the book icon)
            lists every type and field; the guide is docs/graphql.md, REST is in the{' '}
            <Anchor href="/docs" target="_blank" rel="noreferrer" size="sm" underline="always">
              API reference
            </Anchor>
            .
          </>
        }
        actions={
          showing ? (
            <>
              {keys.production && keys.preview ? (
                <SegmentedControl
                  aria-label="Content the explorer reads"
                  value={keys.use}
                  onChange={(v) => store({ ...keys, use: v as Perspective })}
                  data={[
                    { value: 'production', label: 'Production (published)' },
                    { value: 'preview', label: 'Preview (drafts too)' },
                  ]}
                />
              ) : (
                <Badge variant="light" size="lg" tt="none">
                  {keys.use === 'preview' ? 'Preview key: drafts too' : 'Production key: published content'}
                </Badge>
              )}
              <Button variant="default" onClick={() => setEditing(true)}>
                Change keys
              </Button>
            </>
          ) : null
        }
      />
      {!showing ? (
        <KeyForm
          keys={keys}
          administers={administers}
          email={session.user.email}
          onSave={(next) => {
            store(next);
            setEditing(false);
          }}
          onCancel={key ? () => setEditing(false) : undefined}
        />
      ) : types.isPending ? (
        <Loading label="Loading the content model" />
      ) : (
        <div style={{ flex: 1, minHeight: 0, border: '1px solid var(--mantine-color-gray-3)', borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden' }}>
          <Pane workspaceId={workspace.id} fetcher={fetcher!} defaultQuery={query} />
        </div>
      )}
    </Stack>
  );
}

/**
 * Asks for the production and preview keys (either may stay empty) and, to owners and admins,
 * offers to create a preview key for the explorer.
 */
function KeyForm({
  keys,
  administers,
  email,
  onSave,
  onCancel,
}: {
  keys: ExplorerKeys;
  administers: boolean;
  email: string;
  onSave: (keys: ExplorerKeys) => void;
  onCancel?: () => void;
}) {
  const invalidate = useInvalidate();
  const { workspace } = useWorkspace();
  const [production, setProduction] = useState(keys.production ?? '');
  const [preview, setPreview] = useState(keys.preview ?? '');
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = { production: production.trim() || null, preview: preview.trim() || null, use: keys.use };
    onSave({ ...next, use: next[keys.use] ? keys.use : next.production ? 'production' : 'preview' });
  };

  const createPreviewKey = async () => {
    setCreating(true);
    setError(null);
    try {
      const expires = new Date(Date.now() + EXPLORER_KEY_DAYS * 86_400_000);
      const name = `GraphQL explorer (${email})`;
      const res = await api<ApiKey & { key: string }>('/api-keys', {
        method: 'POST',
        body: { name, key_class: 'delivery', environment: 'preview', expires_at: expires.toISOString() },
      });
      await invalidate('api-keys');
      notifications.show({
        color: 'teal',
        title: 'Preview key created',
        message: `“${name}” reads drafts too and expires on ${expires.toLocaleDateString()}. Settings › API keys lists it; revoke it there.`,
      });
      onSave({ production: production.trim() || null, preview: res.data.key, use: 'preview' });
    } catch (err) {
      setError(err);
    } finally {
      setCreating(false);
    }
  };

  const empty = !production.trim() && !preview.trim();
  return (
    <Paper withBorder p="md" maw={640}>
      <form onSubmit={submit}>
        <Stack>
          <Text size="sm">
            The GraphQL API reads with a <strong>delivery key</strong> (sent as <Code>X-API-Key</Code>), not with your Studio session. Give one or both: they
            stay in this browser tab, for this workspace only, and are forgotten when the tab closes.
          </Text>
          <PasswordInput
            label="Production key"
            description="Reads published content, as your website does"
            placeholder="svc_live_…"
            autoComplete="off"
            value={production}
            onChange={(e) => setProduction(e.currentTarget.value)}
          />
          <PasswordInput
            label="Preview key"
            description="Reads drafts and unpublished changes too"
            placeholder="svc_live_…"
            autoComplete="off"
            value={preview}
            onChange={(e) => setPreview(e.currentTarget.value)}
          />
          <ErrorAlert error={error} title="The preview key was not created" />
          <Group justify="space-between" wrap="wrap">
            <Group gap="xs">
              <Button type="submit" disabled={empty}>
                Use these keys
              </Button>
              {onCancel ? (
                <Button variant="default" onClick={onCancel}>
                  Cancel
                </Button>
              ) : null}
              {keys.production || keys.preview ? (
                <Button variant="subtle" color="red" onClick={() => onSave({ production: null, preview: null, use: 'production' })}>
                  Forget keys
                </Button>
              ) : null}
            </Group>
            {administers ? (
              <Button variant="light" loading={creating} onClick={() => void createPreviewKey()}>
                Create a preview key for the explorer
              </Button>
            ) : null}
          </Group>
          {administers ? (
            <Text size="xs" c="dimmed">
              Keys are made and revoked in{' '}
              <Anchor component={Link} to={`/${workspace.slug}/settings/api-keys`} size="xs" underline="always">
                Settings › API keys
              </Anchor>
              ; a key made here expires after {EXPLORER_KEY_DAYS} days.
            </Text>
          ) : (
            <Alert variant="light" color="gray">
              Owners and admins create delivery keys (Settings › API keys): ask one for a key to explore with.
            </Alert>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
