/**
 * `rich_text`: a Tiptap editor with Mantine's toolbar (headings, bold, italic, underline, code,
 * lists, quote, code block, hr, links) and Quire's reference commands (link to an entry, embed an
 * entry block or inline, embed an asset) through the entry and media pickers. The value is a
 * Contentful rich-text document (D33), converted by studio/src/richtext; an editor holding only
 * empty paragraphs stores no value.
 */
import { useEffect, useRef, useState } from 'react';
import { Input } from '@mantine/core';
import { RichTextEditor } from '@mantine/tiptap';
import { ReactNodeViewRenderer, useEditor } from '@tiptap/react';
import { Node, type AnyExtension } from '@tiptap/core';
import { IconBox, IconFileSymlink, IconLink, IconPhoto } from '@tabler/icons-react';
import { richTextExtensions } from '../../richtext/extensions';
import { EmbedView } from './EmbedView';
import { contentfulToPm } from '../../richtext/from-contentful';
import { isEmptyDocument, pmToContentful } from '../../richtext/to-contentful';
import type { CfDocument } from '../../richtext/types';
import { fieldOptions } from '../field-meta';
import { EntryPicker } from '../shared/EntryPicker';
import { MediaPicker } from '../shared/MediaPicker';
import type { EntrySummary } from '../sources';
import type { FieldWidgetProps } from '../types';

type Command = 'entryLink' | 'embedEntry' | 'inlineEntry' | 'embedAsset' | null;

const WITH_VIEW = new Set(['embeddedEntry', 'embeddedAsset', 'inlineEntry']);

/** The editor's extensions, with embedded entries and assets drawn by EmbedView (titles, thumbnails). */
function editorExtensions(): AnyExtension[] {
  return richTextExtensions().map((ext) =>
    ext instanceof Node && WITH_VIEW.has(ext.name)
      ? ext.extend({
          addNodeView() {
            return ReactNodeViewRenderer(EmbedView);
          },
        })
      : ext,
  );
}

export function RichTextWidget({ field, value, onChange, readOnly, error, description, label }: FieldWidgetProps<CfDocument>) {
  const name = label ?? field.label;
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);
  const [command, setCommand] = useState<Command>(null);
  const editor = useEditor({
    extensions: editorExtensions(),
    content: contentfulToPm(value),
    editable: !readOnly,
    immediatelyRender: true,
    shouldRerenderOnTransaction: true,
    editorProps: { attributes: { role: 'textbox', 'aria-multiline': 'true', 'aria-label': name, ...(readOnly ? { 'aria-readonly': 'true' } : {}) } },
    onUpdate: ({ editor: e }) => {
      const doc = pmToContentful(e.getJSON());
      onChangeRef.current(isEmptyDocument(doc) ? null : doc);
    },
  });

  const pickEntry = (entry: EntrySummary) => {
    if (!editor) return;
    const chain = editor.chain().focus();
    if (command === 'entryLink') {
      if (editor.state.selection.empty) chain.insertContent({ type: 'text', text: entry.label, marks: [{ type: 'entryLink', attrs: { id: entry.id } }] }).run();
      else chain.setMark('entryLink', { id: entry.id }).run();
    } else if (command === 'inlineEntry') chain.insertContent({ type: 'inlineEntry', attrs: { id: entry.id } }).run();
    else chain.insertContent({ type: 'embeddedEntry', attrs: { id: entry.id } }).run();
  };

  return (
    <Input.Wrapper label={name} withAsterisk={field.required} description={description} error={error} labelElement="div">
      <RichTextEditor editor={editor} mt={4}>
        {!readOnly ? (
          <RichTextEditor.Toolbar sticky stickyOffset={0}>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.Bold />
              <RichTextEditor.Italic />
              <RichTextEditor.Underline />
              <RichTextEditor.Code />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.H1 />
              <RichTextEditor.H2 />
              <RichTextEditor.H3 />
              <RichTextEditor.H4 />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.BulletList />
              <RichTextEditor.OrderedList />
              <RichTextEditor.Blockquote />
              <RichTextEditor.CodeBlock />
              <RichTextEditor.Hr />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.Link />
              <RichTextEditor.Unlink />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.Control aria-label="Link to entry" title="Link to entry" onClick={() => setCommand('entryLink')}>
                <IconFileSymlink size={16} stroke={1.5} />
              </RichTextEditor.Control>
              <RichTextEditor.Control aria-label="Embed entry" title="Embed entry" onClick={() => setCommand('embedEntry')}>
                <IconBox size={16} stroke={1.5} />
              </RichTextEditor.Control>
              <RichTextEditor.Control aria-label="Embed entry inline" title="Embed entry inline" onClick={() => setCommand('inlineEntry')}>
                <IconLink size={16} stroke={1.5} />
              </RichTextEditor.Control>
              <RichTextEditor.Control aria-label="Embed asset" title="Embed asset" onClick={() => setCommand('embedAsset')}>
                <IconPhoto size={16} stroke={1.5} />
              </RichTextEditor.Control>
            </RichTextEditor.ControlsGroup>
          </RichTextEditor.Toolbar>
        ) : null}
        <RichTextEditor.Content />
      </RichTextEditor>
      <EntryPicker
        opened={command === 'entryLink' || command === 'embedEntry' || command === 'inlineEntry'}
        onClose={() => setCommand(null)}
        types={fieldOptions(field)}
        title={command === 'entryLink' ? 'Link to entry' : 'Embed entry'}
        onPick={pickEntry}
      />
      <MediaPicker
        opened={command === 'embedAsset'}
        onClose={() => setCommand(null)}
        title="Embed asset"
        onPick={(m) =>
          editor
            ?.chain()
            .focus()
            .insertContent({ type: 'embeddedAsset', attrs: { id: m.id } })
            .run()
        }
      />
    </Input.Wrapper>
  );
}
