import { registerField } from '../registry';
import { RelationListWidget } from './RelationListWidget';

registerField({ type: 'relation_list', component: RelationListWidget });
