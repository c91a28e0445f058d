import { registerField } from '../registry';
import { UrlWidget } from './UrlWidget';

registerField({ type: 'url', component: UrlWidget });
