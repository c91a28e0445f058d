import { registerField } from '../registry';
import { MediaListWidget } from './MediaListWidget';

registerField({ type: 'media_list', component: MediaListWidget });
