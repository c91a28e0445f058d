/** Date and time formatting of the Studio: the browser's locale and time zone, medium dates, short times. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** "24 Nov 2026, 08:15"; an empty string for null, the raw text when unparsable. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : dateTime.format(d);
}

const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** "24 Nov 2026" (the full date and time in `title` is the caller's choice); empty for null. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : dateOnly.format(d);
}
