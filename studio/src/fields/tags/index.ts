import { registerField } from '../registry';
import { TagsWidget } from './TagsWidget';

registerField({ type: 'tags', component: TagsWidget, summarize: (v) => (Array.isArray(v) ? v.join(', ') : '') });
