/** `datetime`, registered with a lazily loaded widget (the picker loads with the first date-time field). */
import { lazyWidget } from '../lazy';
import { registerField } from '../registry';
import { formatStored } from './local';

registerField({
  type: 'datetime',
  component: lazyWidget<string>(async () => (await import('./DateTimeWidget')).DateTimeWidget),
  summarize: (v) => (typeof v === 'string' ? (formatStored(v) ?? v) : ''),
});
