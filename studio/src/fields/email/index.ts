import { registerField } from '../registry';
import { EmailWidget } from './EmailWidget';

registerField({ type: 'email', component: EmailWidget });
