/**
 * The publish confirmation: what goes live, by field and locale; "Don't ask again" remembered in
 * this browser until "Ask again" beside the Publish button.
 */
import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { publishWithoutAsking, setPublishWithoutAsking, summarizeChanges } from './publish-confirm';
import { PublishDialog } from './PublishDialog';
import { StatusActions } from './StatusActions';

afterEach(() => setPublishWithoutAsking(false));

const CHANGES = [
  { what: 'Title', locale: 'en', kind: 'changed' as const },
  { what: 'Title', locale: 'de', kind: 'added' as const },
  { what: 'Card “One”', locale: null, kind: 'moved' as const },
];

describe('publish confirmation', () => {
  it('summarizes the things and locales that change', () => {
    expect(summarizeChanges(CHANGES)).toEqual({ what: ['Title', 'Card “One”'], locales: ['en', 'de'] });
  });

  it('lists what goes live and publishes; "Don’t ask again" is remembered', async () => {
    const onPublish = vi.fn();
    render(
      <MantineProvider>
        <PublishDialog opened title="“Hello”" live changes={CHANGES} loadError={null} confirmLabel="Publish changes" onClose={() => {}} onPublish={onPublish} />
      </MantineProvider>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Publish changes: “Hello”?' });
    expect(dialog).toHaveTextContent('Readers get these changes to the live version (en, de)');
    const items = within(within(dialog).getByRole('list', { name: 'What goes live' })).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual(['changedTitle (en)', 'addedTitle (de)', 'movedCard “One”']);
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Don’t ask again in this browser' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish changes' }));
    expect(onPublish).toHaveBeenCalledTimes(1);
    expect(publishWithoutAsking()).toBe(true);
  });

  it('says when nothing is live yet, and waits for the live version before it can publish', () => {
    const { rerender } = render(
      <MantineProvider>
        <PublishDialog opened title="“Hello”" live={false} changes={null} loadError={null} confirmLabel="Publish" onClose={() => {}} onPublish={() => {}} />
      </MantineProvider>,
    );
    expect(screen.getByRole('button', { name: 'Publish' })).toBeDisabled();
    rerender(
      <MantineProvider>
        <PublishDialog
          opened
          title="“Hello”"
          live={false}
          changes={CHANGES.slice(0, 1)}
          loadError={null}
          confirmLabel="Publish"
          onClose={() => {}}
          onPublish={() => {}}
        />
      </MantineProvider>,
    );
    expect(screen.getByRole('dialog')).toHaveTextContent('Nothing of it is live now: readers get all of it (en)');
    expect(screen.getByRole('button', { name: 'Publish' })).toBeEnabled();
  });

  it('the status bar offers "Ask again" while publishing does not ask', async () => {
    setPublishWithoutAsking(true);
    render(
      <MantineProvider>
        <StatusActions item={{ status: 'draft', publish_at: null, published_at: null }} saveState="saved" canPublish canWrite busy={null} onAction={() => {}} />
      </MantineProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Ask again' }));
    expect(publishWithoutAsking()).toBe(false);
    expect(screen.queryByRole('button', { name: 'Ask again' })).toBeNull();
  });
});
