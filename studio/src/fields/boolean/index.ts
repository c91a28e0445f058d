import { registerField } from '../registry';
import { BooleanWidget } from './BooleanWidget';

registerField({ type: 'boolean', component: BooleanWidget, summarize: (v) => (v === true ? 'yes' : v === false ? 'no' : '') });
