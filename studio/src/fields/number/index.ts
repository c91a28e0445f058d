import { registerField } from '../registry';
import { NumberWidget } from './NumberWidget';

registerField({ type: 'number', component: NumberWidget });
