/**
 * `multi_select`, registered with a lazily loaded widget: Mantine's MultiSelect (about 5 KB brotli)
 * loads with the first multi-select field, so the page editor, whose blocks seldom have one, stays
 * within its first-load budget (docs/studio.md "How it is built and served").
 */
import { lazyWidget } from '../lazy';
import { registerField } from '../registry';

registerField({
  type: 'multi_select',
  component: lazyWidget<string[]>(async () => (await import('./MultiSelectWidget')).MultiSelectWidget),
  summarize: (v) => (Array.isArray(v) ? v.join(', ') : ''),
});
