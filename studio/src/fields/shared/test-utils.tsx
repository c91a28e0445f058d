/** Helpers of the widget tests: a field factory, fake sources and a stateful harness. */
import { useState, type ComponentType } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { vi } from 'vitest';
import type { Field } from '../../api/types';
import { FieldSourcesContext, type EntrySummary, type FieldSources, type MediaSummary } from '../sources';
import type { FieldWidgetProps } from '../types';

// jsdom has no FontFaceSet; Mantine's autosizing textarea listens to document.fonts.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() } });
}

// ProseMirror measures the selection to scroll it into view; jsdom has no layout.
const noRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
const zeroRect = () => ({ x: 0, y: 0, top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0, toJSON: () => ({}) }) as DOMRect;
Range.prototype.getClientRects ??= noRects;
Range.prototype.getBoundingClientRect ??= zeroRect;
if (!('getClientRects' in Text.prototype)) Object.assign(Text.prototype, { getClientRects: noRects, getBoundingClientRect: zeroRect });
document.elementFromPoint ??= () => null;

export function makeField(partial: Partial<Field> & Pick<Field, 'field_type'>): Field {
  return {
    id: '01a1fd32-0441-707e-b766-f16e3861aee0',
    content_type_id: '01a1fd32-0441-707e-b766-ee52be2a8599',
    name: partial.name ?? 'value',
    label: partial.label ?? 'Value',
    required: false,
    is_unique: false,
    localizable: false,
    filterable: false,
    sortable: false,
    sort_order: 0,
    options: null,
    validation: null,
    created_at: '2026-11-21T08:21:15.969Z',
    updated_at: '2026-11-21T08:21:15.969Z',
    index_build: null,
    ...partial,
  };
}

export const ENTRIES: EntrySummary[] = [
  { id: '01a1fd32-3bbe-76dd-9adf-83dbe35a5661', slug: 'ada', type: 'author', label: 'Ada Lovelace', status: 'published' },
  { id: '01a1fd32-3bee-737b-b75e-b2d7e5d87981', slug: 'grace', type: 'author', label: 'Grace Hopper', status: 'draft' },
  { id: '01a1fd32-3c15-774a-8b5f-38ffd27de390', slug: 'alan', type: 'author', label: 'Alan Turing', status: 'draft' },
];

export const MEDIA: MediaSummary[] = [
  {
    id: '01a1fd32-cf02-72ed-90f0-d4c74bef4579',
    url: 'http://x.test/a.png',
    thumbnailUrl: 'http://x.test/a.png?w=128',
    label: 'Team photo',
    mimeType: 'image/png',
  },
  {
    id: '01a1fd32-cf02-72ed-90f0-d4c74bef4580',
    url: 'http://x.test/b.jpg',
    thumbnailUrl: 'http://x.test/b.jpg?w=128',
    label: 'Office',
    mimeType: 'image/jpeg',
  },
  { id: '01a1fd32-cf02-72ed-90f0-d4c74bef4581', url: 'http://x.test/c.pdf', thumbnailUrl: null, label: 'Brochure', mimeType: 'application/pdf' },
];

export function fakeSources(): FieldSources {
  return {
    searchEntries: vi.fn(async (types: string[], search: string) =>
      ENTRIES.filter((e) => (!types.length || types.includes(e.type)) && e.label.toLowerCase().includes(search.toLowerCase())),
    ),
    entriesByIds: vi.fn(async (ids: string[]) => ENTRIES.filter((e) => ids.includes(e.id))),
    listMedia: vi.fn(async () => ({ items: MEDIA, hasMore: false })),
    mediaByIds: vi.fn(async (ids: string[]) => MEDIA.filter((m) => ids.includes(m.id))),
    uploadMedia: vi.fn(async (file: File) => ({
      id: '01a1fd32-cf02-72ed-90f0-d4c74bef4599',
      url: `http://x.test/${file.name}`,
      thumbnailUrl: `http://x.test/${file.name}?w=128`,
      label: file.name,
      mimeType: file.type,
    })),
  };
}

/**
 * Renders `Widget` for `field` holding its value in state (as the entry form does) and returns
 * `onChange`, a spy of every value the widget emitted.
 */
export function renderWidget<V>(
  Widget: ComponentType<FieldWidgetProps<V>>,
  field: Field,
  value: NoInfer<V> | null,
  extra: Partial<FieldWidgetProps<V>> & { sources?: FieldSources } = {},
) {
  const onChange = vi.fn<(v: V | null) => void>();
  const sources = extra.sources ?? fakeSources();
  function Harness() {
    const [v, setV] = useState<V | null>(value);
    return (
      <Widget
        {...extra}
        field={field}
        value={v}
        onChange={(next) => {
          onChange(next);
          setV(next);
        }}
      />
    );
  }
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const utils = render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <FieldSourcesContext.Provider value={sources}>
          <Harness />
        </FieldSourcesContext.Provider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...utils, onChange, sources };
}
