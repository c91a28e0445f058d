import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeField, renderWidget } from '../shared/test-utils';
import { isHttpUrl, UrlWidget } from './UrlWidget';

const field = makeField({ field_type: 'url', name: 'website', label: 'Website' });

describe('url widget', () => {
  it('shows a link to open a valid URL', () => {
    renderWidget(UrlWidget, field, 'https://quire.dev');
    expect(screen.getByRole('textbox', { name: 'Website' })).toHaveValue('https://quire.dev');
    expect(screen.getByRole('link', { name: 'Open https://quire.dev in a new tab' })).toHaveAttribute('href', 'https://quire.dev');
  });
  it('emits what is typed and says when it is not an absolute http(s) URL', async () => {
    const { onChange } = renderWidget(UrlWidget, field, null);
    await userEvent.type(screen.getByRole('textbox', { name: 'Website' }), 'quire.dev');
    expect(onChange).toHaveBeenLastCalledWith('quire.dev');
    expect(screen.getByText('Enter an absolute URL starting with http:// or https://')).toBeInTheDocument();
    expect(isHttpUrl('ftp://x.test')).toBe(false);
    expect(isHttpUrl('http://x.test/a')).toBe(true);
  });
});
