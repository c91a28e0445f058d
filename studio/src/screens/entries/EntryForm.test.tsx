import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FieldSourcesContext } from '../../fields/sources';
import { fakeSources, makeField } from '../../fields/shared/test-utils';
import { EntryForm } from './EntryForm';

const fields = [
  makeField({ field_type: 'text', name: 'title', label: 'Title', localizable: true, sort_order: 0 }),
  makeField({ field_type: 'text', name: 'summary', label: 'Summary', localizable: true, sort_order: 1 }),
  makeField({ field_type: 'integer', name: 'minutes', label: 'Minutes', sort_order: 2 }),
];
const draft = { data: { title: 'Hello', summary: 'Short', minutes: 3 }, translations: { de: { title: 'Hallo' } } };

function show(locale: string, readOnly = false, readOnlyFields?: ReadonlySet<string>) {
  const onChange = vi.fn();
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <FieldSourcesContext.Provider value={fakeSources()}>
          <EntryForm
            fields={fields}
            draft={draft}
            locale={locale}
            defaultLocale="en"
            readOnly={readOnly}
            readOnlyFields={readOnlyFields}
            errors={new Map([['summary@de', 'is too long']])}
            revision={0}
            onChange={onChange}
          />
        </FieldSourcesContext.Provider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return onChange;
}

describe('entry form', () => {
  it('default locale: every field edits data', async () => {
    const onChange = show('en');
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Hello');
    await userEvent.type(screen.getByRole('textbox', { name: 'Title' }), '!');
    expect(onChange).toHaveBeenLastCalledWith('en', 'title', 'Hello!');
  });
  it('another locale: translations beside the default values, fallbacks marked, shared fields read-only', async () => {
    const onChange = show('de');
    expect(screen.getByRole('textbox', { name: 'Title (de)' })).toHaveValue('Hallo');
    expect(screen.getByText('en: Hello')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Summary (de)' })).toHaveValue('');
    expect(screen.getByText('en: Short')).toBeInTheDocument();
    expect(screen.getAllByText('falls back to en')).toHaveLength(1);
    expect(screen.getByText('is too long')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Minutes' })).toHaveAttribute('readonly');
    await userEvent.type(screen.getByRole('textbox', { name: 'Summary (de)' }), 'K');
    expect(onChange).toHaveBeenLastCalledWith('de', 'summary', 'K');
  });
  it('read-only: no field can be edited', () => {
    show('en', true);
    for (const name of ['Title', 'Summary', 'Minutes']) expect(screen.getByRole('textbox', { name })).toHaveAttribute('readonly');
  });
  it("a role's read-only fields (D120 deny_fields) are shown but cannot be edited, in every locale", () => {
    show('en', false, new Set(['summary']));
    expect(screen.getByRole('textbox', { name: 'Summary' })).toHaveAttribute('readonly');
    expect(screen.getByRole('textbox', { name: 'Title' })).not.toHaveAttribute('readonly');
  });
});
