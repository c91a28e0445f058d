import { registerField } from '../registry';
import { MultiSelectWidget } from './MultiSelectWidget';

registerField({ type: 'multi_select', component: MultiSelectWidget, summarize: (v) => (Array.isArray(v) ? v.join(', ') : '') });
