/**
 * `rich_text`: registered with a lazily loaded widget. The editor (Tiptap, ProseMirror and the
 * Contentful converters) is the largest part of the Studio's JavaScript, so it loads only when a
 * form shows a rich-text field, not with every entry or page editor.
 */
import { lazy, Suspense } from 'react';
import { Loader } from '@mantine/core';
import { registerField } from '../registry';
import type { FieldWidgetProps } from '../types';
import type { CfDocument } from '../../richtext/types';

const RichTextWidget = lazy(() => import('./RichTextWidget').then((m) => ({ default: m.RichTextWidget })));

function LazyRichTextWidget(props: FieldWidgetProps<CfDocument>) {
  return (
    <Suspense fallback={<Loader size="sm" aria-label={`Loading the ${props.label ?? props.field.label} editor`} />}>
      <RichTextWidget {...props} />
    </Suspense>
  );
}

registerField({ type: 'rich_text', component: LazyRichTextWidget });
