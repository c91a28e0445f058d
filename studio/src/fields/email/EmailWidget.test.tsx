import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeField, renderWidget } from '../shared/test-utils';
import { EmailWidget } from './EmailWidget';

const field = makeField({ field_type: 'email', name: 'contact', label: 'Contact' });

describe('email widget', () => {
  it('emits the address and flags one that cannot be an address', async () => {
    const { onChange } = renderWidget(EmailWidget, field, null);
    const input = screen.getByRole('textbox', { name: 'Contact' });
    await userEvent.type(input, 'ada@');
    expect(onChange).toHaveBeenLastCalledWith('ada@');
    expect(screen.getByText('This does not look like an email address')).toBeInTheDocument();
    await userEvent.type(input, 'example.com');
    expect(onChange).toHaveBeenLastCalledWith('ada@example.com');
    expect(screen.queryByText('This does not look like an email address')).not.toBeInTheDocument();
  });
});
