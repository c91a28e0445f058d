import { registerField } from '../registry';
import { DateTimeWidget, isoToLocal } from './DateTimeWidget';

registerField({ type: 'datetime', component: DateTimeWidget, summarize: (v) => (typeof v === 'string' ? (isoToLocal(v) ?? v) : '') });
