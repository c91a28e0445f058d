import { registerField } from '../registry';
import { RichTextWidget } from './RichTextWidget';

registerField({ type: 'rich_text', component: RichTextWidget });
