/**
 * Publishing asks first (docs/studio.md "Publishing"): what goes live, the working copy compared
 * with the live version (everything when nothing is live), by field and locale. People who do not
 * want to be asked tick "Don't ask again", remembered in this browser (localStorage) until they
 * choose "Ask again" beside the Publish button.
 */
import { useSyncExternalStore } from 'react';

const KEY = 'quire:publish-confirm';
const EVENT = 'quire:publish-confirm';

/** True when this browser publishes without asking. Storage switched off: always ask. */
export function publishWithoutAsking(): boolean {
  try {
    return window.localStorage.getItem(KEY) === 'skip';
  } catch {
    return false;
  }
}

export function setPublishWithoutAsking(skip: boolean): void {
  try {
    if (skip) window.localStorage.setItem(KEY, 'skip');
    else window.localStorage.removeItem(KEY);
  } catch {
    // Storage may be off (private mode): the dialog then keeps asking.
  }
  window.dispatchEvent(new Event(EVENT));
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener(EVENT, onChange);
  // another tab of this browser
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(EVENT, onChange);
    window.removeEventListener('storage', onChange);
  };
}

/** publishWithoutAsking(), kept current in a component. */
export function usePublishWithoutAsking(): boolean {
  return useSyncExternalStore(subscribe, publishWithoutAsking, () => false);
}

/** One difference that goes live: "Title" in "de", changed. */
export interface LiveChange {
  what: string;
  /** null for a change of no locale (a block moved, added or removed) */
  locale: string | null;
  kind: 'added' | 'removed' | 'changed' | 'moved';
}

/** The distinct things and locales that change, in order of first mention: for "Title, Body in en, de". */
export function summarizeChanges(changes: LiveChange[]): { what: string[]; locales: string[] } {
  const what = [...new Set(changes.map((c) => c.what))];
  const locales = [...new Set(changes.map((c) => c.locale).filter((l): l is string => l !== null))];
  return { what, locales };
}
