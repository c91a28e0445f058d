import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CfDocument } from '../../richtext/types';
import { ENTRIES, MEDIA, makeField, renderWidget } from '../shared/test-utils';
import { RichTextWidget } from './RichTextWidget';

const field = makeField({ field_type: 'rich_text', label: 'Body' });
const doc: CfDocument = {
  nodeType: 'document',
  data: {},
  content: [
    { nodeType: 'heading-2', data: {}, content: [{ nodeType: 'text', value: 'Welcome', marks: [], data: {} }] },
    { nodeType: 'paragraph', data: {}, content: [{ nodeType: 'text', value: 'Bold words', marks: [{ type: 'bold' }], data: {} }] },
  ],
};

describe('rich_text widget', () => {
  it('renders the document: heading and marked text', () => {
    renderWidget(RichTextWidget, field, doc);
    const editor = screen.getByRole('textbox', { name: 'Body' });
    expect(editor.querySelector('h2')).toHaveTextContent('Welcome');
    expect(editor.querySelector('strong')).toHaveTextContent('Bold words');
    for (const name of [
      'Bold',
      'Italic',
      'Underline',
      'Code',
      'Bullet list',
      'Ordered list',
      'Blockquote',
      'Code block',
      'Horizontal line',
      'Link to entry',
      'Embed entry',
      'Embed asset',
    ])
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
  });
  it('embeds an entry chosen in the picker and emits a Contentful document with it', async () => {
    const { onChange } = renderWidget(RichTextWidget, field, doc);
    await userEvent.click(screen.getByRole('button', { name: 'Embed entry' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Grace Hopper' }));
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    const out = onChange.mock.lastCall![0] as CfDocument;
    expect(out.nodeType).toBe('document');
    expect(out.content).toContainEqual({
      nodeType: 'embedded-entry-block',
      data: { target: { sys: { id: ENTRIES[1].id, type: 'Link', linkType: 'Entry' } } },
      content: [],
    });
    expect(out.content).toContainEqual(doc.content[0]);
    expect(await screen.findByLabelText('Embedded entry: Grace Hopper')).toBeInTheDocument();
  });
  it('embeds an asset chosen from the library', async () => {
    const { onChange } = renderWidget(RichTextWidget, field, null);
    await userEvent.click(screen.getByRole('button', { name: 'Embed asset' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Office' }));
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    expect((onChange.mock.lastCall![0] as CfDocument).content).toContainEqual({
      nodeType: 'embedded-asset-block',
      data: { target: { sys: { id: MEDIA[1].id, type: 'Link', linkType: 'Asset' } } },
      content: [],
    });
    expect(await screen.findByLabelText('Embedded asset: Office')).toBeInTheDocument();
  });
  it('links to an entry: the title is inserted as an entry-hyperlink', async () => {
    const { onChange } = renderWidget(RichTextWidget, field, null);
    await userEvent.click(screen.getByRole('button', { name: 'Link to entry' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Ada Lovelace' }));
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    const para = (onChange.mock.lastCall![0] as CfDocument).content[0];
    expect(para.content).toContainEqual({
      nodeType: 'entry-hyperlink',
      data: { target: { sys: { id: ENTRIES[0].id, type: 'Link', linkType: 'Entry' } } },
      content: [{ nodeType: 'text', value: 'Ada Lovelace', marks: [], data: {} }],
    });
  });
  it('read-only: no toolbar, content not editable', () => {
    renderWidget(RichTextWidget, field, doc, { readOnly: true });
    expect(screen.queryByRole('button', { name: 'Bold' })).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Body' })).toHaveAttribute('contenteditable', 'false');
  });
});
