/**
 * `rich_text`, registered with a lazily loaded widget: the editor (Tiptap, ProseMirror and the
 * Contentful converters, about 120 KB brotli) is the largest part of the Studio's JavaScript.
 */
import { lazyWidget } from '../lazy';
import { registerField } from '../registry';
import type { CfDocument } from '../../richtext/types';

registerField({ type: 'rich_text', component: lazyWidget<CfDocument>(async () => (await import('./RichTextWidget')).RichTextWidget) });
