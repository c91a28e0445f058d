import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MEDIA, makeField, renderWidget } from '../shared/test-utils';
import { MediaWidget } from './MediaWidget';

const field = makeField({ field_type: 'media', label: 'Cover' });

describe('media widget', () => {
  it('shows the chosen asset with its thumbnail', async () => {
    renderWidget(MediaWidget, field, MEDIA[0].id);
    expect(await screen.findByRole('img', { name: 'Team photo' })).toHaveAttribute('src', MEDIA[0].thumbnailUrl);
  });
  it('picks from the library with thumbnails and emits the asset id', async () => {
    const { onChange } = renderWidget(MediaWidget, field, null);
    await userEvent.click(screen.getByRole('button', { name: 'Choose media for Cover' }));
    const office = await screen.findByRole('button', { name: 'Choose Office' });
    expect(office.querySelector('img')).toHaveAttribute('src', MEDIA[1].thumbnailUrl);
    await userEvent.click(office);
    expect(onChange).toHaveBeenLastCalledWith(MEDIA[1].id);
    await userEvent.click(screen.getByRole('button', { name: 'Remove media from Cover' }));
    expect(onChange).toHaveBeenLastCalledWith(null);
  });
});
