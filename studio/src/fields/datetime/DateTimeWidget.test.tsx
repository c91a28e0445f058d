import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeField, renderWidget } from '../shared/test-utils';
import { DateTimeWidget } from './DateTimeWidget';
import { isoToLocal, localToIso } from './local';

const field = makeField({ field_type: 'datetime', label: 'Event starts' });

describe('datetime widget', () => {
  it('converts between ISO UTC and the local picker value both ways', () => {
    const iso = '2026-11-21T08:21:30.000Z';
    const local = isoToLocal(iso);
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(localToIso(local)).toBe(iso);
    expect(isoToLocal(null)).toBeNull();
    expect(localToIso('not a date')).toBeNull();
  });
  it('shows the stored moment in local time under a label naming the time zone', () => {
    renderWidget(DateTimeWidget, field, '2026-11-21T08:21:30.000Z');
    const button = screen.getByRole('button', { name: /^Event starts \(.+\)$/ });
    expect(button).toHaveTextContent(isoToLocal('2026-11-21T08:21:30.000Z')!.slice(0, 16));
  });
});
