import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MEDIA, makeField, renderWidget } from '../shared/test-utils';
import { MediaListWidget } from './MediaListWidget';

const field = makeField({ field_type: 'media_list', label: 'Gallery' });
const [team, office, brochure] = MEDIA;

describe('media_list widget', () => {
  it('lists the assets in order with thumbnails', async () => {
    renderWidget(MediaListWidget, field, [office.id, team.id]);
    const list = screen.getByRole('list', { name: 'Gallery' });
    await within(list).findByRole('img', { name: 'Office' });
    expect(
      within(list)
        .getAllByRole('img')
        .map((i) => i.getAttribute('alt')),
    ).toEqual(['Office', 'Team photo']);
  });
  it('appends several picked assets in the order chosen, reorders and removes (uuid[], null when empty)', async () => {
    const { onChange } = renderWidget(MediaListWidget, field, [team.id]);
    await userEvent.click(screen.getByRole('button', { name: 'Add media to Gallery' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add media to Gallery' });
    const brochureButton = await within(dialog).findByRole('button', { name: 'Choose Brochure' });
    expect(within(dialog).queryByRole('button', { name: 'Choose Team photo' })).not.toBeInTheDocument();
    await userEvent.click(brochureButton);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Choose Office' }));
    expect(brochureButton).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Choose Office' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Choose Office' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add 2 selected' }));
    expect(onChange).toHaveBeenLastCalledWith([team.id, brochure.id, office.id]);
    await userEvent.click(await screen.findByRole('button', { name: 'Move Brochure up' }));
    expect(onChange).toHaveBeenLastCalledWith([brochure.id, team.id, office.id]);
    await userEvent.click(screen.getByRole('button', { name: 'Remove Brochure' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove Office' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove Team photo' }));
    expect(onChange).toHaveBeenLastCalledWith(null);
  });
});
