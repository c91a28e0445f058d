import { registerField } from '../registry';
import { TextareaWidget } from './TextareaWidget';

registerField({ type: 'textarea', component: TextareaWidget });
