/**
 * Autosave of a working copy (an entry's or a page's): a change waits `delayMs` (AUTOSAVE_DELAY_MS,
 * 1 s; PREVIEW_AUTOSAVE_DELAY_MS, 300 ms, while the editor's live preview pane is open) after the
 * last edit, then PUTs the whole draft with `If-Match` (D5). Saves never overlap: edits made during a save are
 * saved right after it. A 412 stops autosaving and reports a conflict (someone else saved first)
 * until the editor reloads; a 400 reports the API's field errors and waits for the next edit.
 * `flush()` saves what is pending now (before publish and the other state actions).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/client';

/** What a save answers: at least the new ETag (the rest, e.g. the saved record, goes to onSaved). */
export interface Saved {
  etag: string | null;
}

export type SaveState = 'saved' | 'dirty' | 'saving' | 'error' | 'conflict';

/** How long an edit waits for the next one before it is saved. */
export const AUTOSAVE_DELAY_MS = 1000;
/**
 * The same while the live preview pane is open: the pane shows what is saved, and typing must show
 * there within a second (docs/visual-editing.md), so the pause is shorter; saves never overlap.
 */
export const PREVIEW_AUTOSAVE_DELAY_MS = 300;

export interface Autosave<Draft> {
  state: SaveState;
  /** the refusal of the last save (null after a success) */
  error: unknown;
  /** record a new draft (schedules a save) */
  change: (draft: Draft) => void;
  /** save pending edits now; resolves when nothing is pending (rejects when the save fails) */
  flush: () => Promise<void>;
  /** the draft and ETag now on the server (after a load, reload or restore) */
  reset: (etag: string | null) => void;
  /** the ETag last seen, for the state actions */
  etag: () => string | null;
  setEtag: (etag: string | null) => void;
}

interface Saver<Draft, R extends Saved> {
  draft: Draft | null;
  etag: string | null;
  /** edits made so far, and how many of them the server has */
  changed: number;
  saved: number;
  timer: ReturnType<typeof setTimeout> | null;
  inFlight: Promise<void> | null;
  conflict: boolean;
  save: (draft: Draft, etag: string | null) => Promise<R>;
  onSaved: (result: R) => void;
}

/** Saves until the server has every edit; one request at a time. */
async function saveLoop<Draft, R extends Saved>(s: Saver<Draft, R>, setState: (state: SaveState) => void, setError: (error: unknown) => void): Promise<void> {
  if (s.inFlight) {
    await s.inFlight;
    if (s.changed > s.saved && !s.conflict) return saveLoop(s, setState, setError);
    return;
  }
  if (s.conflict || !s.draft || s.changed === s.saved) return;
  const seq = s.changed;
  setState('saving');
  s.inFlight = (async () => {
    try {
      const res = await s.save(s.draft as Draft, s.etag);
      s.etag = res.etag;
      s.saved = seq;
      setError(null);
      s.onSaved(res);
      setState(s.changed > seq ? 'dirty' : 'saved');
    } catch (err) {
      if (err instanceof ApiError && err.status === 412) {
        s.conflict = true;
        setState('conflict');
      } else setState('error');
      setError(err);
      throw err;
    } finally {
      s.inFlight = null;
    }
  })();
  await s.inFlight;
  if (s.changed > s.saved) return saveLoop(s, setState, setError);
}

export function useAutosave<Draft, R extends Saved>(
  save: (draft: Draft, etag: string | null) => Promise<R>,
  initialEtag: string | null,
  onSaved: (result: R) => void,
  delayMs = AUTOSAVE_DELAY_MS,
): Autosave<Draft> {
  const [state, setState] = useState<SaveState>('saved');
  const [error, setError] = useState<unknown>(null);
  const r = useRef<Saver<Draft, R>>({ draft: null, etag: initialEtag, changed: 0, saved: 0, timer: null, inFlight: null, conflict: false, save, onSaved });
  useEffect(() => {
    r.current.save = save;
    r.current.onSaved = onSaved;
  }, [save, onSaved]);

  const run = useCallback(() => saveLoop(r.current, setState, setError), []);

  const change = useCallback(
    (draft: Draft) => {
      const s = r.current;
      s.draft = draft;
      s.changed += 1;
      if (s.conflict) return;
      setState('dirty');
      if (s.timer) clearTimeout(s.timer);
      s.timer = setTimeout(() => {
        s.timer = null;
        run().catch(() => {});
      }, delayMs);
    },
    [run, delayMs],
  );

  const flush = useCallback(async () => {
    const s = r.current;
    if (s.timer) clearTimeout(s.timer);
    s.timer = null;
    if (s.conflict) throw new ApiError(412, 'PRECONDITION_FAILED', 'Someone else saved this first: reload it before going on.', null, null);
    await run();
  }, [run]);

  const reset = useCallback((etag: string | null) => {
    const s = r.current;
    if (s.timer) clearTimeout(s.timer);
    s.timer = null;
    s.etag = etag;
    s.saved = s.changed;
    s.conflict = false;
    setError(null);
    setState('saved');
  }, []);

  // Leaving the editor with edits pending: save them (the request outlives the screen) and warn
  // before the tab closes.
  useEffect(() => {
    const s = r.current;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (s.changed > s.saved && !s.conflict) e.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      if (s.timer) clearTimeout(s.timer);
      if (s.changed > s.saved && !s.conflict) run().catch(() => {});
    };
  }, [run]);

  const etag = useCallback(() => r.current.etag, []);
  const setEtag = useCallback((tag: string | null) => {
    r.current.etag = tag;
  }, []);
  return { state, error, change, flush, reset, etag, setEtag };
}
