/**
 * The SEO of a page (docs/pages.md "SEO object"): title (one line, at most 300 characters),
 * description (at most 1,000), keywords (up to 50), Open Graph image and canonical URL (absolute
 * http/https). In the default locale it edits `seo`; in another locale it edits that locale's
 * overrides, showing the default value under each label and "falls back to en" where the
 * translation has none (docs/pages.md "Translations and localization" rule 1: readers get the default value there). The title is
 * always shown; the other values fold behind "More SEO fields" (open when one of them has an error).
 * Each value has its comment button (`seo.<key>`, editor/comments/FieldComments.tsx).
 */
import { useState, type ReactNode } from 'react';
import { Badge, Button, Collapse, Group, Paper, Stack, TagsInput, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { FieldComments } from '../../editor/comments/FieldComments';
import type { Seo, SeoKey, SeoOverrides } from './tree';

export const SEO_LABELS: Record<SeoKey, string> = {
  title: 'SEO title',
  description: 'Description',
  keywords: 'Keywords',
  og_image: 'Open Graph image URL',
  canonical: 'Canonical URL',
};

const shown = (v: unknown) => (Array.isArray(v) ? (v.length ? v.join(', ') : '—') : typeof v === 'string' && v ? v : '—');

export interface SeoPanelProps {
  seo: Seo;
  translations: Record<string, SeoOverrides>;
  locale: string;
  defaultLocale: string;
  readOnly: boolean;
  /** API errors by `seo.<key>` or `seo_translations.<locale>.<key>` */
  errors: Map<string, string>;
  onChange: (locale: string, key: SeoKey, value: string | string[] | null) => void;
}

/** Where an API error path lands in the panel (`body.seo.title` → `seo.title`), or null. */
export function seoErrorKey(path: string): string | null {
  const p = path.replace(/^body\./, '');
  return /^seo(_translations\.[^.]+)?\.(title|description|keywords|og_image|canonical)/.exec(p)?.[0] ?? null;
}

export function SeoPanel({ seo, translations, locale, defaultLocale, readOnly, errors, onChange }: SeoPanelProps) {
  const isDefault = locale === defaultLocale;
  const [more, setMore] = useState(false);
  const moreErrors = [...errors.keys()].some((k) => !k.endsWith('.title'));
  const open = more || moreErrors;
  const own = isDefault ? seo : (translations[locale] ?? {});
  const props = (key: SeoKey) => {
    const errorKey = isDefault ? `seo.${key}` : `seo_translations.${locale}.${key}`;
    const value = own[key];
    const fallsBack = value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
    const description: ReactNode = isDefault ? undefined : (
      <Group gap={6} component="span" wrap="nowrap" align="flex-start">
        {fallsBack ? (
          <Badge size="xs" color="yellow.4" variant="filled" autoContrast component="span">
            falls back to {defaultLocale}
          </Badge>
        ) : null}
        <Text span size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {defaultLocale}: {shown(seo[key])}
        </Text>
      </Group>
    );
    // data-seo-field: where a refusal's list takes the focus (editor/field-errors.ts).
    return { label: isDefault ? SEO_LABELS[key] : `${SEO_LABELS[key]} (${locale})`, description, error: errors.get(errorKey), readOnly, 'data-seo-field': key };
  };
  const text = (key: Exclude<SeoKey, 'keywords'>) => (typeof own[key] === 'string' ? (own[key] as string) : '');
  const set = (key: SeoKey) => (value: string | string[]) => onChange(locale, key, Array.isArray(value) ? value : value === '' ? null : value);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="seo-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="seo-title">
          Title and SEO
        </Title>
        <FieldComments field="seo.title" label={SEO_LABELS.title} localized>
          <TextInput {...props('title')} maxLength={300} value={text('title')} onChange={(e) => set('title')(e.currentTarget.value)} />
        </FieldComments>
        <Group>
          <Button
            variant="subtle"
            size="compact-sm"
            aria-expanded={open}
            aria-controls="seo-more"
            leftSection={open ? <IconChevronDown size={14} aria-hidden /> : <IconChevronRight size={14} aria-hidden />}
            onClick={() => setMore(!more)}
          >
            More SEO fields
          </Button>
        </Group>
        <Collapse expanded={open} id="seo-more">
          <Stack gap="sm">
            <FieldComments field="seo.description" label={SEO_LABELS.description} localized>
              <Textarea
                {...props('description')}
                autosize
                minRows={2}
                maxLength={1000}
                value={text('description')}
                onChange={(e) => set('description')(e.currentTarget.value)}
              />
            </FieldComments>
            <FieldComments field="seo.keywords" label={SEO_LABELS.keywords} localized>
              <TagsInput
                {...props('keywords')}
                maxTags={50}
                placeholder={readOnly ? undefined : 'Type a keyword, then Enter'}
                value={Array.isArray(own.keywords) ? own.keywords : []}
                onChange={set('keywords')}
              />
            </FieldComments>
            <FieldComments field="seo.og_image" label={SEO_LABELS.og_image} localized>
              <TextInput {...props('og_image')} type="url" value={text('og_image')} onChange={(e) => set('og_image')(e.currentTarget.value)} />
            </FieldComments>
            <FieldComments field="seo.canonical" label={SEO_LABELS.canonical} localized>
              <TextInput {...props('canonical')} type="url" value={text('canonical')} onChange={(e) => set('canonical')(e.currentTarget.value)} />
            </FieldComments>
          </Stack>
        </Collapse>
      </Stack>
    </Paper>
  );
}
