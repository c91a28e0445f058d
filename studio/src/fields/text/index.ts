import { registerField } from '../registry';
import { TextWidget } from './TextWidget';

registerField({ type: 'text', component: TextWidget });
