/**
 * Field type → widget. Each folder of studio/src/fields registers its widget from its index.ts;
 * fields/index.ts imports them all, so adding a field type is one folder and one import.
 */
import type { ComponentType } from 'react';
import type { FieldType, FieldWidgetDefinition, FieldWidgetProps } from './types';

const widgets = new Map<string, FieldWidgetDefinition>();

/** Registers the widget of one field type; `V` is the value shape the widget edits. */
export function registerField<V>(definition: Omit<FieldWidgetDefinition, 'component'> & { component: ComponentType<FieldWidgetProps<V>> }): void {
  widgets.set(definition.type, { ...definition, component: definition.component as unknown as ComponentType<FieldWidgetProps<unknown>> });
}

/** The widget of `type`; throws for a type nobody registered (a missing import in fields/index.ts). */
export function widgetFor(type: FieldType | string): FieldWidgetDefinition {
  const widget = widgets.get(type);
  if (!widget) throw new Error(`No widget registered for field type '${type}'`);
  return widget;
}

export function registeredTypes(): string[] {
  return [...widgets.keys()];
}
