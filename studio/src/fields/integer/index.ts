/** `integer` shares the number widget, in its whole-number form (allowDecimal off). */
import { NumberWidget } from '../number/NumberWidget';
import { registerField } from '../registry';

registerField({ type: 'integer', component: NumberWidget });
