/**
 * "Publish …?": what goes live before it does (publish-confirm.ts). `changes` is null while the
 * live version loads; `live` says whether a version is live now (else everything goes live).
 */
import { useState } from 'react';
import { Badge, Button, Checkbox, Group, List, Modal, Stack, Text } from '@mantine/core';
import { ErrorAlert } from '../components/ErrorAlert';
import { Loading } from '../components/Loading';
import { setPublishWithoutAsking, summarizeChanges, type LiveChange } from './publish-confirm';

const SHOWN = 30;
const KIND_COLOR = { added: 'green', removed: 'red', changed: 'blue', moved: 'grape' } as const;

export function PublishDialog({
  opened,
  title,
  live,
  changes,
  loadError,
  confirmLabel,
  onClose,
  onPublish,
}: {
  opened: boolean;
  /** the item's name, e.g. “First post” */
  title: string;
  live: boolean;
  changes: LiveChange[] | null;
  loadError: unknown;
  confirmLabel: string;
  onClose: () => void;
  onPublish: () => void;
}) {
  const [dontAsk, setDontAsk] = useState(false);
  const summary = changes ? summarizeChanges(changes) : null;
  const publish = () => {
    if (dontAsk) setPublishWithoutAsking(true);
    onPublish();
  };
  return (
    <Modal opened={opened} onClose={onClose} title={`${confirmLabel}: ${title}?`} centered size="lg">
      <Stack>
        <ErrorAlert error={loadError} title="The live version could not be read" />
        {!changes && !loadError ? <Loading label="Comparing with the live version" /> : null}
        {summary && changes ? (
          <>
            <Text size="sm">
              {live ? 'Readers get these changes to the live version' : 'Nothing of it is live now: readers get all of it'}
              {summary.locales.length ? ` (${summary.locales.join(', ')})` : ''}:
            </Text>
            {changes.length ? (
              <List size="sm" spacing={2} aria-label="What goes live">
                {changes.slice(0, SHOWN).map((c, i) => (
                  <List.Item key={`${c.what}:${c.locale}:${i}`}>
                    <Group gap={6} wrap="nowrap" align="baseline">
                      <Badge size="xs" variant="light" color={KIND_COLOR[c.kind]}>
                        {c.kind}
                      </Badge>
                      <Text span size="sm">
                        {c.what}
                        {c.locale ? ` (${c.locale})` : ''}
                      </Text>
                    </Group>
                  </List.Item>
                ))}
              </List>
            ) : (
              <Text size="sm" c="dimmed">
                No field differs from the live version.
              </Text>
            )}
            {changes.length > SHOWN ? (
              <Text size="sm" c="dimmed">
                and {changes.length - SHOWN} more changes.
              </Text>
            ) : null}
          </>
        ) : null}
        <Checkbox label="Don’t ask again in this browser" checked={dontAsk} onChange={(e) => setDontAsk(e.currentTarget.checked)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={publish} disabled={!changes && !loadError} data-autofocus>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
