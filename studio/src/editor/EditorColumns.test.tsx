/**
 * The editor's columns with the live preview: below 900 px the form and the preview are two tabs
 * (Preview chosen when the preview opens, Edit when an editor opens with it already open or goes to
 * a field, the form kept mounted); from 900 px they are shown together.
 */
import { useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubMatchMedia } from '../app/test-utils';
import { EditorColumns, PREVIEW_TAB_QUERY } from './LivePreview';

const viewport = (narrow: boolean) => stubMatchMedia(narrow ? [PREVIEW_TAB_QUERY] : []);

function Editor({ initiallyOpen }: { initiallyOpen: boolean }) {
  const [open, setOpen] = useState(initiallyOpen);
  // What an editor going to a refused field sets (EntryEditor's goal).
  const [goal, setGoal] = useState<object | null>(null);
  // The editors' fields are controlled by their draft, as here.
  const [title, setTitle] = useState('');
  return (
    <MantineProvider>
      <button type="button" onClick={() => setOpen(!open)}>
        toggle
      </button>
      <button type="button" onClick={() => setGoal({})}>
        go to Title
      </button>
      <EditorColumns
        showForm={goal}
        main={<input aria-label="Title" value={title} onChange={(e) => setTitle(e.currentTarget.value)} />}
        side={<p>status</p>}
        preview={open ? <p>the preview</p> : null}
      />
    </MantineProvider>
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('EditorColumns', () => {
  it('below 900 px: opening the preview shows its tab; Edit brings the form back as it was', async () => {
    viewport(true);
    render(<Editor initiallyOpen={false} />);
    expect(screen.queryByRole('tab')).toBeNull();
    await userEvent.type(screen.getByRole('textbox', { name: 'Title' }), 'Hello');
    await userEvent.click(screen.getByRole('button', { name: 'toggle' }));
    expect(screen.getByRole('tab', { name: 'Preview' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('the preview')).toBeVisible();
    await userEvent.click(screen.getByRole('tab', { name: 'Edit' }));
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Hello');
    expect(screen.getByText('the preview')).not.toBeVisible();
  });

  it('below 900 px: going to a field from the Preview tab brings back the Edit tab, each time', async () => {
    viewport(true);
    render(<Editor initiallyOpen />);
    for (let i = 0; i < 2; i += 1) {
      await userEvent.click(screen.getByRole('tab', { name: 'Preview' }));
      expect(screen.getByText('the preview')).toBeVisible();
      await userEvent.click(screen.getByRole('button', { name: 'go to Title' }));
      expect(screen.getByRole('tab', { name: 'Edit' })).toHaveAttribute('aria-selected', 'true');
      expect(screen.getByRole('textbox', { name: 'Title' })).toBeVisible();
    }
  });

  it('below 900 px: an editor opening with the preview remembered open shows the form first', () => {
    viewport(true);
    render(<Editor initiallyOpen />);
    expect(screen.getByRole('tab', { name: 'Edit' })).toHaveAttribute('aria-selected', 'true');
  });

  it('from 900 px: the form and the preview side by side, no tabs', () => {
    viewport(false);
    render(<Editor initiallyOpen />);
    expect(screen.queryByRole('tab')).toBeNull();
    expect(screen.getByText('the preview')).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'Title' })).toBeVisible();
  });
});
