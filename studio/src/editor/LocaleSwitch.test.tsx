/**
 * The locale switcher with a role's writable locales (D120): only those locales and the default
 * one, marked read-only when the role may not write it; without a limit, every locale.
 */
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { WorkspaceSettings } from '../api/types';
import { LocaleSwitch } from './LocaleSwitch';

const settings = { default_locale: 'en', locales: ['en', 'de', 'fr'] } as WorkspaceSettings;

function show(writable?: readonly string[] | null) {
  return render(
    <MantineProvider>
      <LocaleSwitch settings={settings} locale="en" onChange={() => {}} writable={writable} />
    </MantineProvider>,
  );
}

const names = () => screen.getAllByRole('radio').map((r) => r.getAttribute('value'));

describe('locale switch', () => {
  it('every locale without a limit; a translator sees German and the default locale, read-only', () => {
    show();
    expect(names()).toEqual(['en', 'de', 'fr']);
    expect(screen.getByRole('radio', { name: 'en (default)' })).toBeInTheDocument();
  });
  it('a translator who may write German: German and the default locale, marked read-only', () => {
    show(['de']);
    expect(names()).toEqual(['en', 'de']);
    expect(screen.getByRole('radio', { name: 'en (default, read-only)' })).toBeInTheDocument();
  });
  it('a role writing the default locale and French: no read-only mark', () => {
    show(['en', 'fr']);
    expect(names()).toEqual(['en', 'fr']);
    expect(screen.getByRole('radio', { name: 'en (default)' })).toBeInTheDocument();
  });
});
