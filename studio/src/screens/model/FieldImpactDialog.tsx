/**
 * What deleting a field, or toggling whether it is localizable, would affect (D35): GET
 * …/deletion-impact and …/localization-impact. The API offers neither change, so the dialog
 * reports and explains the way forward instead of acting.
 */
import { Button, Group, List, Modal, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { ContentType, DeletionImpact, Field, LocalizationImpact } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { useWsKey } from '../../app/queries';

const entries = (n: number) => `${n} ${n === 1 ? 'entry' : 'entries'}`;
/** "1 entry holds", "3 entries hold" */
const entriesHold = (n: number) => `${entries(n)} ${n === 1 ? 'holds' : 'hold'}`;

export function FieldImpactDialog({ type, field, onClose }: { type: ContentType; field: Field; onClose: () => void }) {
  const key = useWsKey();
  const base = `/content-types/${type.slug}/fields/${field.id}`;
  const deletion = useQuery({
    queryKey: key('impact', field.id, 'deletion'),
    queryFn: async () => (await api<DeletionImpact>(`${base}/deletion-impact`)).data,
    staleTime: 0,
  });
  const localization = useQuery({
    queryKey: key('impact', field.id, 'localization'),
    queryFn: async () => (await api<LocalizationImpact>(`${base}/localization-impact`)).data,
    staleTime: 0,
  });

  return (
    <Modal opened onClose={onClose} title={`Impact of changing “${field.label}”`} centered size="lg">
      <Stack>
        {deletion.isPending || localization.isPending ? <Loading label="Measuring the impact" /> : null}
        <ErrorAlert error={deletion.error ?? localization.error} title="The impact could not be measured" />
        {deletion.data ? (
          <section aria-labelledby="impact-deletion">
            <Title order={3} size="h5" id="impact-deletion">
              Deleting the field
            </Title>
            <Text size="sm">
              {deletion.data.affected_entries === 0
                ? 'No entry holds a value for this field: deleting it would lose nothing.'
                : `${entriesHold(deletion.data.affected_entries)} a value for this field; deleting it would lose ${deletion.data.affected_entries === 1 ? 'it' : 'them'}.`}
            </Text>
          </section>
        ) : null}
        {localization.data ? (
          <section aria-labelledby="impact-localization">
            <Title order={3} size="h5" id="impact-localization">
              {localization.data.localizable ? 'Making it not localizable' : 'Making it localizable'}
            </Title>
            {localization.data.localizable ? (
              <>
                <Text size="sm">
                  {entriesHold(localization.data.affected_entries)} a value in the default locale.{' '}
                  {localization.data.locales.length ? 'Translations that would be dropped:' : 'No translation holds a value for it.'}
                </Text>
                {localization.data.locales.length ? (
                  <List size="sm">
                    {localization.data.locales.map((l) => (
                      <List.Item key={l.locale}>
                        {l.locale}: {entries(l.count)}
                      </List.Item>
                    ))}
                  </List>
                ) : null}
              </>
            ) : (
              <Text size="sm">
                {entriesHold(localization.data.affected_entries)} a value; it would become the default locale&apos;s value, and other locales would fall back to
                it.
              </Text>
            )}
          </section>
        ) : null}
        <Text size="sm" c="dimmed">
          Quire does not delete fields or change whether they are localizable: either would silently rewrite published content. To retire a field, relabel it
          (for example “Old: {field.label}”) and stop filling it; to restructure, create a new field or content type and move the content over.
        </Text>
        <Group justify="flex-end">
          <Button onClick={onClose}>Close</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
