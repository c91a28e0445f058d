/**
 * The state actions of the entry and page editors (D20-D23, D71): pending edits are saved first
 * (so an action acts on them, with the ETag they produced), then publish / unpublish / archive /
 * schedule change the state and the record is read again; duplicate, delete and preview run the
 * editor's own handler. Delete and schedule ask first (their dialogs show the refusal), publish
 * too unless this browser said not to (it shows what goes live, PublishDialog); other
 * refusals are kept in `error` for the editor to show, field errors on their fields.
 */
import { useState } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Autosave } from './autosave';
import { publishWithoutAsking } from './publish-confirm';
import type { StatusAction } from './StatusActions';

export type StateVerb = 'publish' | 'unpublish' | 'archive' | 'schedule';

export interface StatusActionHandlers {
  /** PATCH …/{verb} with If-Match; answers the new ETag */
  changeState: (verb: StateVerb, etag: string | null, publishAt?: string) => Promise<string | null>;
  /** reads the record again after a state change */
  refresh: () => Promise<void>;
  duplicate: () => Promise<void>;
  /** DELETE with If-Match, then leave the editor */
  remove: (etag: string | null) => Promise<void>;
  preview?: () => Promise<void>;
}

const DONE: Record<StateVerb, string> = { publish: 'Published', unpublish: 'Unpublished', archive: 'Archived', schedule: 'Scheduled' };
const isVerb = (a: StatusAction): a is StateVerb => a in DONE;

export function useStatusActions<D>(autosave: Autosave<D>, handlers: StatusActionHandlers) {
  const [busy, setBusy] = useState<StatusAction | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [dialog, setDialog] = useState<'delete' | 'schedule' | 'publish' | null>(null);

  const act = async (action: StatusAction, publishAt?: string) => {
    setError(null);
    setBusy(action);
    try {
      await autosave.flush();
      if (isVerb(action)) {
        autosave.setEtag(await handlers.changeState(action, autosave.etag(), publishAt));
        await handlers.refresh();
        notifications.show({ message: DONE[action], color: 'green' });
      } else if (action === 'duplicate') await handlers.duplicate();
      else if (action === 'delete') await handlers.remove(autosave.etag());
      else if (action === 'preview') await handlers.preview?.();
    } catch (err) {
      setError(err);
      // The confirming dialog shows its own refusal.
      if (action === 'delete' || action === 'schedule') throw err;
    } finally {
      setBusy(null);
    }
  };
  const onAction = (action: StatusAction) => {
    if (action === 'delete' || action === 'schedule') setDialog(action);
    // Publishing first shows what goes live, unless this browser said not to ask (publish-confirm.ts).
    else if (action === 'publish' && !publishWithoutAsking()) setDialog('publish');
    else void act(action);
  };
  /** The publish dialog's confirmation: it closes, and the refusal, if any, shows on the fields. */
  const confirmPublish = () => {
    setDialog(null);
    void act('publish');
  };
  return { busy, error, setError, dialog, setDialog, act, onAction, confirmPublish };
}

/** "Someone else saved this … first" (a 412): nothing was overwritten; Reload takes their version. */
export function ConflictAlert({ what, onReload }: { what: string; onReload: () => void }) {
  return (
    <Alert color="orange" title={`Someone else saved this ${what} first`} role="alert">
      <Stack gap="xs">
        <Text size="sm">
          Your latest changes were not saved, so that theirs are not overwritten. Reload to get their version, then make your changes again.
        </Text>
        <Group>
          <Button size="xs" onClick={onReload}>
            Reload
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
