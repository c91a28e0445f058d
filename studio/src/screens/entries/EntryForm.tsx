/**
 * The form of an entry, rendered from its content type's fields with one widget per field type
 * (studio/src/fields). In the default locale every field edits `data`. In another locale a
 * localizable field edits that locale's translation, shows the default-locale value under its
 * label and says when it falls back (no translation value); other fields are read-only there,
 * since every locale shares them. Inside an editor that provides comments, each field has its
 * comment button beside its label (editor/comments/FieldComments.tsx).
 */
import { Badge, Group, Stack, Text } from '@mantine/core';
import type { Field } from '../../api/types';
import { widgetFor } from '../../fields';
import { FieldComments } from '../../editor/comments/FieldComments';
import type { Draft } from './model';
import { errorKey, summarize } from './model';

export interface EntryFormProps {
  fields: Field[];
  draft: Draft;
  locale: string;
  defaultLocale: string;
  readOnly: boolean;
  /** Fields the person's role may read but not change (D120 deny_fields): shown read-only. */
  readOnlyFields?: ReadonlySet<string>;
  errors: Map<string, string>;
  /** bumped when the draft is replaced from outside (reload, restore): widgets start afresh */
  revision: number;
  onChange: (locale: string, field: string, value: unknown) => void;
}

export function EntryForm({ fields, draft, locale, defaultLocale, readOnly: formReadOnly, readOnlyFields, errors, revision, onChange }: EntryFormProps) {
  const isDefault = locale === defaultLocale;
  const ordered = [...fields].sort((a, b) => a.sort_order - b.sort_order);
  return (
    <Stack gap="lg">
      {ordered.map((field) => {
        const Widget = widgetFor(field.field_type).component;
        const readOnly = formReadOnly || readOnlyFields?.has(field.name) === true;
        const base = draft.data[field.name];
        // Widgets may hold state of their own (JSON text, the rich-text editor): one mount per locale and revision.
        const key = `${field.name}@${locale}#${revision}`;
        if (isDefault) {
          return (
            <div key={key} data-field={field.name}>
              <FieldComments field={field.name} label={field.label} localized={field.localizable}>
                <Widget
                  field={field}
                  value={base}
                  readOnly={readOnly}
                  error={errors.get(errorKey(locale, field.name))}
                  onChange={(v) => onChange(locale, field.name, v)}
                />
              </FieldComments>
            </div>
          );
        }
        if (!field.localizable) {
          return (
            <div key={key} data-field={field.name}>
              <FieldComments field={field.name} label={field.label} localized={field.localizable}>
                <Widget
                  field={field}
                  value={base}
                  readOnly
                  label={field.label}
                  description={`Not localizable: the same in every locale (edit it in ${defaultLocale}).`}
                  onChange={() => {}}
                />
              </FieldComments>
            </div>
          );
        }
        const value = draft.translations[locale]?.[field.name];
        const fallsBack = value === undefined || value === null;
        return (
          <div key={key} data-field={field.name}>
            <FieldComments field={field.name} label={field.label} localized={field.localizable}>
              <Widget
                field={field}
                value={value}
                readOnly={readOnly}
                label={`${field.label} (${locale})`}
                error={errors.get(errorKey(locale, field.name))}
                description={
                  <Group gap={6} component="span" wrap="nowrap" align="flex-start">
                    {fallsBack ? (
                      <Badge size="xs" color="yellow.4" variant="filled" autoContrast component="span">
                        falls back to {defaultLocale}
                      </Badge>
                    ) : null}
                    <Text span size="xs" c="dimmed">
                      {defaultLocale}: {summarize(field, base)}
                    </Text>
                  </Group>
                }
                onChange={(v) => onChange(locale, field.name, v)}
              />
            </FieldComments>
          </div>
        );
      })}
    </Stack>
  );
}
