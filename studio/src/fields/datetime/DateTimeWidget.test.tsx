import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeField, renderWidget } from '../shared/test-utils';
import { DateTimeWidget } from './DateTimeWidget';
import { formatStored, offsetOf, timeZoneName, wallClock, withOffset } from './local';

const field = makeField({ field_type: 'datetime', label: 'Event starts' });

describe('datetime conversions', () => {
  it('reads the time and the offset as written', () => {
    expect(wallClock('2026-11-21T10:00:00.000+02:00')).toBe('2026-11-21 10:00:00');
    expect(offsetOf('2026-11-21T10:00:00.000+02:00')).toBe('+02:00');
    expect(offsetOf('2026-11-21T10:00:00.000-0530')).toBe('-05:30');
    expect(offsetOf('2026-11-21T08:21:30.175Z')).toBe('Z');
    expect(offsetOf('2026-11-21T08:21:30+00:00')).toBe('Z');
    expect(formatStored('2026-11-21T10:00:00.000+02:00')).toBe('2026-11-21 10:00 UTC+02:00');
    expect(formatStored('2026-11-21T08:21:30.175Z')).toBe('2026-11-21 08:21 UTC');
    for (const bad of [null, undefined, '', '2026-11-21T10:00:00', 'tomorrow']) {
      expect(wallClock(bad)).toBeNull();
      expect(offsetOf(bad)).toBeNull();
    }
  });

  it('writes a picked time with the edited value’s offset, or the browser’s for a new value', () => {
    expect(withOffset('2026-11-25 10:00:00', '+02:00')).toBe('2026-11-25T10:00:00.000+02:00');
    expect(withOffset('2026-11-25 10:00', 'Z')).toBe('2026-11-25T10:00:00.000Z');
    // A new value names the moment the browser's clock shows at that date and time.
    for (const local of ['2026-01-15 09:30:00', '2026-07-01 12:00:00']) {
      const stored = withOffset(local, null)!;
      expect(stored).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000(Z|[+-]\d{2}:\d{2})$/);
      expect(wallClock(stored)).toBe(local);
      const [d, t] = local.split(' ');
      const [y, mo, day] = d.split('-').map(Number);
      const [h, mi] = t.split(':').map(Number);
      expect(Date.parse(stored)).toBe(new Date(y, mo - 1, day, h, mi).getTime());
    }
    // The offset of that date: New York is at -05:00 in January and -04:00 in July.
    const tz = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      expect(withOffset('2026-01-15 09:30:00', null)).toBe('2026-01-15T09:30:00.000-05:00');
      expect(withOffset('2026-07-01 12:00:00', null)).toBe('2026-07-01T12:00:00.000-04:00');
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
    expect(withOffset(null, '+02:00')).toBeNull();
    expect(withOffset('not a date', null)).toBeNull();
  });
});

describe('datetime widget', () => {
  it('shows the time as written under a label naming its offset, and keeps the offset on an edit', async () => {
    const { onChange } = renderWidget(DateTimeWidget, field, '2026-11-21T10:00:00.000+02:00');
    const button = screen.getByRole('button', { name: 'Event starts (UTC+02:00)' });
    expect(button).toHaveTextContent('2026-11-21 10:00');
    await userEvent.click(button);
    await userEvent.click(await screen.findByRole('button', { name: '25 November 2026', hidden: true }));
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm date and time', hidden: true }));
    expect(onChange).toHaveBeenLastCalledWith('2026-11-25T10:00:00.000+02:00');
  });

  it('names the browser’s time zone while the field is empty', () => {
    renderWidget(DateTimeWidget, field, null);
    expect(screen.getByRole('button', { name: `Event starts (${timeZoneName()})` })).toBeInTheDocument();
  });
});
