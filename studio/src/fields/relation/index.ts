import { registerField } from '../registry';
import { RelationWidget } from './RelationWidget';

registerField({ type: 'relation', component: RelationWidget });
