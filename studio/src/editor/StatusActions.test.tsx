import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { StatusActions, type Publishable } from './StatusActions';

const entry = (status: string, pending = false): Publishable => ({ status, has_pending_changes: pending, publish_at: null, published_at: null });
const names = () => screen.queryAllByRole('button').map((b) => b.textContent);

function show(e: Publishable, canPublish: boolean, canWrite: boolean, withPreview = true, publishBlocked: string | null = null) {
  const onAction = vi.fn();
  render(
    <MantineProvider>
      <StatusActions
        item={e}
        saveState="saved"
        canPublish={canPublish}
        canWrite={canWrite}
        busy={null}
        onAction={onAction}
        withPreview={withPreview}
        publishBlocked={publishBlocked}
      />
    </MantineProvider>,
  );
  return onAction;
}

describe('status bar of the entry and page editors', () => {
  it('editor, draft: publish, archive, schedule, preview, duplicate, delete', async () => {
    const onAction = show(entry('draft'), true, true);
    expect(names()).toEqual(['Publish', 'Archive', 'Schedule', 'Open preview', 'Duplicate', 'Delete']);
    await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
    expect(onAction).toHaveBeenCalledWith('publish');
    expect(screen.getByRole('status', { name: 'Save state: Saved' })).toBeInTheDocument();
  });
  it('published with pending changes: "Publish changes" (D71) and the changed badge', () => {
    show(entry('published', true), true, true);
    expect(names()).toEqual(['Publish changes', 'Unpublish', 'Archive', 'Open preview', 'Duplicate', 'Delete']);
    expect(screen.getByText('changed')).toBeInTheDocument();
  });
  it('published without changes: nothing to publish', () => {
    show(entry('published'), true, true);
    expect(names()).not.toContain('Publish');
    expect(names()).not.toContain('Publish changes');
  });
  it('author: no publish, unpublish, archive or schedule', () => {
    show(entry('published', true), false, true);
    expect(names()).toEqual(['Open preview', 'Duplicate', 'Delete']);
  });
  it('viewer: no actions, a read-only note', () => {
    show(entry('draft'), false, false);
    expect(names()).toEqual([]);
    expect(screen.getByText('Read-only: your role cannot change content')).toBeInTheDocument();
  });
  it('pages (no preview): publish, archive, schedule, duplicate, delete', () => {
    show(entry('draft'), true, true, false);
    expect(names()).toEqual(['Publish', 'Archive', 'Schedule', 'Duplicate', 'Delete']);
  });
  it("outside the workflow's publish stage: Publish and Schedule disabled, saying why; Archive still works", () => {
    show(entry('draft'), true, true, true, 'Publishing happens in the stage “Ready”; this item is in “Review”. Move it there first.');
    const publish = screen.getByRole('button', { name: 'Publish' });
    expect(publish).toBeDisabled();
    expect(publish).toHaveAccessibleDescription('Publishing happens in the stage “Ready”; this item is in “Review”. Move it there first.');
    expect(screen.getByRole('button', { name: 'Schedule' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Archive' })).toBeEnabled();
  });
});
