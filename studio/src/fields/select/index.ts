import { registerField } from '../registry';
import { SelectWidget } from './SelectWidget';

registerField({ type: 'select', component: SelectWidget });
