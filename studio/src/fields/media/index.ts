import { registerField } from '../registry';
import { MediaWidget } from './MediaWidget';

registerField({ type: 'media', component: MediaWidget });
