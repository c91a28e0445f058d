/**
 * Every field widget, registered: importing this module makes widgetFor() know each field type
 * of D30. Only the entry editor imports it, so the widgets (and Tiptap) load on editor routes.
 */
import './text';
import './textarea';
import './rich-text';
import './number';
import './integer';
import './boolean';
import './date';
import './datetime';
import './email';
import './url';
import './select';
import './multi-select';
import './tags';
import './json';
import './media';
import './media-list';
import './relation';
import './relation-list';

export { widgetFor, registeredTypes } from './registry';
export type { FieldWidgetProps, FieldWidgetDefinition } from './types';
