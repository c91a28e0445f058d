import { registerField } from '../registry';
import { JsonWidget } from './JsonWidget';

registerField({ type: 'json', component: JsonWidget, summarize: (v) => (v === undefined || v === null ? '' : JSON.stringify(v)) });
