/** `url`: an absolute http or https URL (D30), with a link to open it. */
import { Anchor, TextInput } from '@mantine/core';
import type { FieldWidgetProps } from '../types';

/** True for an absolute http(s) URL, the only kind the API stores. */
export function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch {
    return false;
  }
}

export function UrlWidget({ field, value, onChange, readOnly, error, description, label }: FieldWidgetProps<string>) {
  const valid = !!value && isHttpUrl(value);
  return (
    <TextInput
      type="url"
      label={label ?? field.label}
      withAsterisk={field.required}
      description={description}
      error={error ?? (value && !valid ? 'Enter an absolute URL starting with http:// or https://' : null)}
      readOnly={readOnly}
      placeholder="https://"
      value={value ?? ''}
      onChange={(e) => onChange(e.currentTarget.value.trim() || null)}
      rightSectionWidth={56}
      rightSection={
        valid ? (
          <Anchor href={value} target="_blank" rel="noreferrer" size="xs" aria-label={`Open ${value} in a new tab`}>
            Open
          </Anchor>
        ) : null
      }
    />
  );
}
