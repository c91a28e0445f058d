import { registerField } from '../registry';
import { DateWidget } from './DateWidget';

registerField({ type: 'date', component: DateWidget });
