/** Conversions between ISO 8601 UTC and the date-time picker's local "YYYY-MM-DD HH:mm:ss" (browser time zone). */
import dayjs from 'dayjs';

/** ISO 8601 → the picker's local "YYYY-MM-DD HH:mm:ss"; null for no or an unreadable value. */
export function isoToLocal(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const d = dayjs(iso);
  return d.isValid() ? d.format('YYYY-MM-DD HH:mm:ss') : null;
}

/** The picker's local "YYYY-MM-DD HH:mm:ss" → ISO 8601 UTC with milliseconds. */
export function localToIso(local: string | null | undefined): string | null {
  if (!local) return null;
  const d = dayjs(local);
  return d.isValid() ? d.toISOString() : null;
}

/** The browser's IANA time zone, shown beside date-time labels. */
export function timeZoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
}
