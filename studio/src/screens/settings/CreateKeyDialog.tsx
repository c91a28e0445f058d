/**
 * The "Create API key" dialog: name, class, environment (delivery keys), content-type whitelist,
 * scopes (management keys) and expiry (POST /api-keys). On success it shows the value once with
 * a copy button; closing it forgets the value.
 */
import { useState, type FormEvent } from 'react';
import { Button, Checkbox, Code, Group, Modal, MultiSelect, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { api } from '../../api/client';
import type { Scope } from '../../api/session';
import { ShownOnceDialog } from '../../components/ShownOnceDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useContentTypes, useInvalidate } from '../../app/queries';
import type { ApiKey } from '../../api/types';

export type { ApiKey } from '../../api/types';

const SCOPES: { value: Scope; label: string }[] = [
  { value: 'content:write', label: 'content:write — create and edit entries and pages' },
  { value: 'content:publish', label: 'content:publish — publish, unpublish, schedule, archive' },
  { value: 'media:write', label: 'media:write — upload and edit media' },
  { value: 'schema:write', label: 'schema:write — change the content model' },
  { value: 'webhooks:write', label: 'webhooks:write — manage webhooks and see their deliveries' },
];

function isoDate(daysAhead: number): string {
  return new Date(Date.now() + daysAhead * 86_400_000).toISOString().slice(0, 10);
}

export function CreateKeyDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const types = useContentTypes();
  const invalidate = useInvalidate();
  const [name, setName] = useState('');
  const [keyClass, setKeyClass] = useState<'delivery' | 'management'>('delivery');
  const [environment, setEnvironment] = useState<'production' | 'preview'>('production');
  const [contentTypes, setContentTypes] = useState<string[]>([]);
  const [scopes, setScopes] = useState<string[]>(['content:write']);
  const [expires, setExpires] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [created, setCreated] = useState<(ApiKey & { key: string }) | null>(null);

  const reset = () => {
    setName('');
    setKeyClass('delivery');
    setEnvironment('production');
    setContentTypes([]);
    setScopes(['content:write']);
    setExpires('');
    setError(null);
    setCreated(null);
  };
  const close = () => {
    reset();
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body: Record<string, unknown> = { name: name.trim(), key_class: keyClass };
      if (keyClass === 'delivery') body.environment = environment;
      else body.scopes = scopes;
      if (contentTypes.length) body.content_types = contentTypes;
      // End of the chosen day, in the browser's time zone.
      if (expires) body.expires_at = new Date(`${expires}T23:59:59`).toISOString();
      const res = await api<ApiKey & { key: string }>('/api-keys', { method: 'POST', body });
      setCreated(res.data);
      await invalidate('api-keys');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  if (created) {
    return (
      <ShownOnceDialog
        opened={opened}
        onClose={close}
        title="Your new API key"
        warningTitle="Copy it now"
        label="Key value"
        value={created.key}
        copyLabel="Copy key"
      >
        This is the only time the value of “{created.name}” is shown. Store it in your secrets manager; if it is lost, revoke the key and create another.
      </ShownOnceDialog>
    );
  }

  const entryTypes = (types.data ?? []).filter((t) => !t.is_block);
  return (
    <Modal opened={opened} onClose={close} title="Create API key" centered size="lg">
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <TextInput label="Name" required placeholder="Website (production)" value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="key-class-label">
              Class
            </Text>
            <SegmentedControl
              aria-labelledby="key-class-label"
              value={keyClass}
              onChange={(v) => setKeyClass(v as 'delivery' | 'management')}
              data={[
                { value: 'delivery', label: 'Delivery (read)' },
                { value: 'management', label: 'Management (write)' },
              ]}
            />
          </Stack>
          {keyClass === 'delivery' ? (
            <Select
              label="Environment"
              allowDeselect={false}
              value={environment}
              onChange={(v) => v && setEnvironment(v as 'production' | 'preview')}
              data={[
                { value: 'production', label: 'production — published content only' },
                { value: 'preview', label: 'preview — drafts and unpublished changes too' },
              ]}
            />
          ) : (
            <Checkbox.Group label="Scopes" description="What the key may do; its creator's role limits it too" value={scopes} onChange={setScopes}>
              <Stack gap={6} mt={6}>
                {SCOPES.map((s) => (
                  <Checkbox key={s.value} value={s.value} label={s.label} />
                ))}
              </Stack>
            </Checkbox.Group>
          )}
          <MultiSelect
            label="Content types"
            description="Only these types; leave empty for all"
            placeholder={contentTypes.length ? undefined : 'All content types'}
            data={entryTypes.map((t) => ({ value: t.slug, label: t.name }))}
            value={contentTypes}
            onChange={setContentTypes}
            searchable
            clearable
          />
          <TextInput
            label="Expires on"
            type="date"
            min={isoDate(1)}
            max={keyClass === 'management' ? isoDate(365) : undefined}
            description={keyClass === 'management' ? 'Default: in 90 days; at most a year ahead' : 'Leave empty for a key that does not expire'}
            value={expires}
            onChange={(e) => setExpires(e.currentTarget.value)}
          />
          <ErrorAlert error={error} title="The key was not created" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} disabled={!name.trim()}>
              Create key
            </Button>
          </Group>
          <Text size="xs" c="dimmed">
            Keys are sent in the <Code>X-API-Key</Code> header.
          </Text>
        </Stack>
      </form>
    </Modal>
  );
}
