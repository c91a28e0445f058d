/** `date`, registered with a lazily loaded widget (the date picker loads with the first date field). */
import { lazyWidget } from '../lazy';
import { registerField } from '../registry';

registerField({ type: 'date', component: lazyWidget<string>(async () => (await import('./DateWidget')).DateWidget) });
