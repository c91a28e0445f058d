/**
 * Click-to-edit in an editor (docs/visual-editing.md "Click to edit", D141): the field a Studio URL
 * names (`?field=title&locale=de&block=<id>`, the link a preview opens in a new tab) and the
 * `quire:edit` messages of the framed preview both take the editor to that field, as a refused
 * field's link does (field-errors.ts: its locale shown, its block and the blocks around it
 * expanded, then focused); a message about another item opens that item's editor at the field.
 */
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { ErrorTarget } from './field-errors';
import { editGoalOf, studioRoute, type EditRequest } from './preview-protocol';

/** The editor target of a field of this editor's item (a block's when `blockId`). */
export function editTarget(field: string, locale: string, blockId: string | null): ErrorTarget {
  return { key: `edit|${blockId ?? ''}|${field}@${locale}`, label: field, message: '', locale, field, blockId };
}

/**
 * Goes to the field the URL names once, when the editor opens, and answers the handler of the
 * preview's `quire:edit` messages. `owns(edit)`: whether the edited content is this editor's item
 * (the entry; the page or one of its blocks).
 */
export function useEditRequests(options: {
  locales: readonly string[];
  defaultLocale: string;
  goTo: (target: ErrorTarget) => void;
  owns: (edit: EditRequest) => boolean;
}): (edit: EditRequest) => void {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const first = useRef(search);
  useEffect(() => {
    const goal = editGoalOf(first.current, latest.current.locales);
    if (goal) latest.current.goTo(editTarget(goal.field, goal.locale ?? latest.current.defaultLocale, goal.blockId));
  }, []);
  return (edit) => {
    const o = latest.current;
    if (o.owns(edit)) {
      o.goTo(editTarget(edit.field, o.locales.includes(edit.locale) ? edit.locale : o.defaultLocale, edit.kind === 'block' ? edit.id : null));
      return;
    }
    const route = studioRoute(edit.href, window.location.origin);
    if (route) void navigate(route);
  };
}
