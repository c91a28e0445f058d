import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MEDIA, fakeSources, makeField, renderWidget } from '../shared/test-utils';
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

  it('with media_kinds, lists only accepted kinds, says so, and does not choose an upload of another kind', async () => {
    const images = makeField({ field_type: 'media', label: 'Cover', validation: '{"media_kinds":["image","video"]}' });
    const sources = fakeSources();
    const { onChange } = renderWidget(MediaWidget, images, null, { sources });
    expect(screen.getByText('images or videos only')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Choose media for Cover' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose media for Cover' });
    await within(dialog).findByRole('button', { name: 'Choose Office' });
    expect(sources.listMedia).toHaveBeenLastCalledWith(1, ['image', 'video'], expect.anything());
    // The type filter offers the accepted kinds only.
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Type' }));
    const options = (await screen.findAllByRole('option', { hidden: true })).map((o) => o.textContent);
    expect(options).toEqual(['All accepted types', 'Images', 'Videos']);
    await userEvent.click(screen.getByRole('option', { name: 'Videos', hidden: true }));
    await waitFor(() => expect(sources.listMedia).toHaveBeenLastCalledWith(1, 'video', expect.anything()));
    // The file dialog asks for those kinds; a PDF uploaded anyway stays in the library, unchosen.
    const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
    expect(input).toHaveAttribute('accept', 'image/*,video/*');
    expect(within(dialog).getByText('Images or videos, up to 10 MB.')).toBeInTheDocument();
    vi.mocked(sources.uploadMedia!).mockResolvedValueOnce({ ...MEDIA[2], name: 'report.pdf' });
    // The picker asks for the upload's alt text and sends it with the file.
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Alt text of the upload/ }), 'Annual report');
    const pdf = new File(['%PDF'], 'report.pdf', { type: 'application/pdf' });
    await userEvent.upload(input, pdf, { applyAccept: false });
    expect(sources.uploadMedia).toHaveBeenCalledWith(pdf, 'Annual report');
    expect(await within(dialog).findByText('report.pdf was added to the library, but this field accepts images or videos only.')).toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();
  });
});
