/**
 * Field widgets that load on first use: the heavy ones (the rich-text editor, the date pickers)
 * stay out of an editor's first load and arrive when a form shows such a field. While the code
 * loads, a small spinner named after the field stands in its place.
 */
import { lazy, Suspense, type ComponentType } from 'react';
import { Loader } from '@mantine/core';
import type { FieldWidgetProps } from './types';

/** A widget component that imports `load` the first time it renders. */
export function lazyWidget<V>(load: () => Promise<ComponentType<FieldWidgetProps<V>>>): ComponentType<FieldWidgetProps<V>> {
  const Widget = lazy(async () => ({ default: await load() }));
  return function LazyWidget(props: FieldWidgetProps<V>) {
    return (
      <Suspense fallback={<Loader size="sm" role="status" aria-label={`Loading ${props.label ?? props.field.label}`} />}>
        <Widget {...props} />
      </Suspense>
    );
  };
}
