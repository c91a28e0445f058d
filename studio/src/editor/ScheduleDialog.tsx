/**
 * Asks for the time to publish at (a date-time picker in the browser's time zone, D20 schedule);
 * `note` and `verb` word it for other schedules (a release, an unpublish).
 */
import { useId, useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import dayjs from 'dayjs';
import { ErrorAlert } from '../components/ErrorAlert';

export function ScheduleDialog({
  opened,
  onClose,
  onSchedule,
  what,
  note = 'Publishes the working copy as it is at that moment; until then readers keep what they see now.',
  verb = 'Publish',
}: {
  opened: boolean;
  onClose: () => void;
  /** receives ISO 8601 UTC; a rejection is shown in the dialog */
  onSchedule: (publishAt: string) => Promise<unknown>;
  what: string;
  note?: string;
  /** the label's verb: "Publish at (…)" */
  verb?: string;
}) {
  const pickerId = useId();
  const [value, setValue] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async () => {
    if (!value) return;
    setBusy(true);
    setError(null);
    try {
      await onSchedule(dayjs(value).toISOString());
      setValue(null);
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={`Schedule ${what}`} centered>
      <Stack>
        <Text size="sm">{note}</Text>
        <DateTimePicker
          label={`${verb} at (${Intl.DateTimeFormat().resolvedOptions().timeZone})`}
          placeholder="Pick a date and time"
          valueFormat="YYYY-MM-DD HH:mm"
          minDate={dayjs().format('YYYY-MM-DD')}
          value={value}
          onChange={setValue}
          // the calendar's dialog is named by the field's button (fields/date/DateWidget.tsx says why)
          id={pickerId}
          popoverProps={{ withinPortal: true, id: pickerId }}
          nextLabel="Next month"
          previousLabel="Previous month"
          submitButtonProps={{ 'aria-label': 'Confirm date and time' }}
          timePickerProps={{ hoursInputLabel: 'Hours', minutesInputLabel: 'Minutes' }}
          data-autofocus
        />
        <ErrorAlert error={error} title="Could not schedule" />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} disabled={!value} loading={busy}>
            Schedule
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
