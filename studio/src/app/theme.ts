/**
 * The Studio's Mantine theme. Mantine's default "dimmed" text, and the text of light, subtle and
 * outline variants (shade 6 on white or a pale tint), fall below WCAG AA's 4.5:1 contrast; the
 * resolver darkens them (shade 7 for dimmed text, a darkened shade 9 for coloured text), so axe finds no
 * contrast violation while keeping Mantine's look; placeholders are darkened the same way.
 */
import { createTheme, Drawer, DrawerHeader, Modal, ModalHeader, Notification, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 5 },
  defaultRadius: 'md',
  // People who ask their system for less motion get no dialog and menu animations.
  respectReducedMotion: true,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  // Close buttons are icon-only: they need a name (axe button-name).
  components: {
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } }),
    // A dialog's header is no page banner (axe landmark-no-duplicate-banner): a div, not <header>.
    ModalHeader: ModalHeader.extend({ defaultProps: { component: 'div' } as Record<string, unknown> }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close panel' } } }),
    DrawerHeader: DrawerHeader.extend({ defaultProps: { component: 'div' } as Record<string, unknown> }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss notification' } } }),
    // A menu holds menu items only (axe aria-required-children): no focusable placeholder before
    // them; each menu marks its first enabled item data-autofocus, which takes the focus when it
    // opens (so Escape and the arrow keys work at once). Named by string, like the components
    // below, so the theme does not pull their code into the first load.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // A long list of options scrolls as the listbox itself, not a box inside it: a listbox holds
    // options only (axe aria-required-children), and the listbox of a combobox may scroll without
    // taking the focus (the arrow keys move through it from the input; axe scrollable-region-focusable).
    ...Object.fromEntries(['Select', 'MultiSelect', 'Autocomplete', 'TagsInput'].map((name) => [name, { defaultProps: { withScrollArea: false } }])),
    Combobox: { styles: { options: { maxHeight: 'min(280px, 45vh)', overflowY: 'auto' } } },
    // Calendars show this month's days only (other months' are drawn pale, 2.4:1) and draw weekends
    // like other days (Mantine's red is 3.3:1).
    ...Object.fromEntries(
      ['DatePickerInput', 'DateTimePicker', 'DatePicker'].map((name) => [name, { defaultProps: { hideOutsideDates: true, weekendDays: [] } }]),
    ),
  },
});

const COLORS = ['indigo', 'blue', 'green', 'teal', 'red', 'orange', 'yellow', 'gray', 'dark', 'cyan', 'grape', 'violet', 'pink', 'lime'];

export const cssVariablesResolver: CSSVariablesResolver = () => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // placeholders ("Pick a date") at 5:1 on white instead of gray 5's 2.1:1
    '--mantine-color-placeholder': 'color-mix(in srgb, var(--mantine-color-gray-6), var(--mantine-color-gray-7))',
    '--mantine-primary-color-light-color': 'var(--mantine-color-indigo-9)',
    // the hover tint of light variants (an active nav link under the pointer) stays pale enough
    '--mantine-primary-color-light-hover': 'var(--mantine-color-indigo-1)',
  };
  for (const c of COLORS) {
    // shade 9 darkened (a quarter; nearly half for the yellows): ≥ 4.5:1 even on the pale tint of light badges (green, teal, yellow)
    const dark = `color-mix(in srgb, var(--mantine-color-${c}-9), black ${c === 'yellow' || c === 'orange' || c === 'lime' ? 45 : 25}%)`;
    light[`--mantine-color-${c}-light-color`] = dark;
    light[`--mantine-color-${c}-outline`] = dark;
    light[`--mantine-color-${c}-text`] = dark;
    // white text on filled buttons and badges: shade 6 of most colours is too light
    if (c !== 'indigo' && c !== 'gray' && c !== 'dark') {
      const filled = ['red', 'blue', 'grape', 'violet', 'pink'].includes(c) ? 8 : 9;
      light[`--mantine-color-${c}-filled`] = `var(--mantine-color-${c}-${filled})`;
      light[`--mantine-color-${c}-filled-hover`] = `var(--mantine-color-${c}-9)`;
    }
  }
  return { variables: {}, light, dark: {} };
};
