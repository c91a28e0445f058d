/**
 * The schedule dialog, loaded when it first opens: its date-time picker (@mantine/dates) stays
 * out of the editors' and the entries list's first load. Closed, it renders nothing.
 */
import { lazy, Suspense, type ComponentProps } from 'react';

const ScheduleDialogImpl = lazy(async () => ({ default: (await import('./ScheduleDialog')).ScheduleDialog }));

export function LazyScheduleDialog(props: ComponentProps<typeof ScheduleDialogImpl>) {
  if (!props.opened) return null;
  return (
    <Suspense fallback={null}>
      <ScheduleDialogImpl {...props} />
    </Suspense>
  );
}
