/** `media`: one asset id (D30), chosen from the library with thumbnails (only of the field's `media_kinds`, when set). */
import { useState } from 'react';
import { Button, Group, Input, Text } from '@mantine/core';
import { mediaKindsOf, rulesHint } from '../field-meta';
import { MediaPicker, MediaThumb } from '../shared/MediaPicker';
import { shortId, useMediaLookup } from '../shared/lookups';
import type { MediaSummary } from '../sources';
import type { FieldWidgetProps } from '../types';

export function MediaWidget({ field, value, onChange, readOnly, error, description, label }: FieldWidgetProps<string>) {
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<MediaSummary | null>(null);
  const lookup = useMediaLookup(value ? [value] : []);
  const name = label ?? field.label;
  const media = value ? (lookup.get(value) ?? (picked?.id === value ? picked : undefined)) : undefined;
  return (
    <Input.Wrapper label={name} withAsterisk={field.required} description={description ?? rulesHint(field)} error={error} labelElement="div">
      <Group mt={4} gap="sm">
        {value ? (
          <Group gap="xs" aria-label={`${name}: ${media?.label ?? shortId(value)}`} role="group">
            <MediaThumb media={media} />
            <Text size="sm">{media?.label ?? shortId(value)}</Text>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            No media chosen
          </Text>
        )}
        {!readOnly ? (
          <Group gap="xs">
            <Button variant="default" size="xs" onClick={() => setOpen(true)} aria-label={`${value ? 'Replace' : 'Choose'} media for ${name}`}>
              {value ? 'Replace' : 'Choose media'}
            </Button>
            {value ? (
              <Button variant="subtle" color="red" size="xs" onClick={() => onChange(null)} aria-label={`Remove media from ${name}`}>
                Remove
              </Button>
            ) : null}
          </Group>
        ) : null}
      </Group>
      <MediaPicker
        opened={open}
        onClose={() => setOpen(false)}
        title={`Choose media for ${name}`}
        kinds={mediaKindsOf(field)}
        onPick={(m) => {
          setPicked(m);
          onChange(m.id);
        }}
      />
    </Input.Wrapper>
  );
}
