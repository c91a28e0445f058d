/**
 * What a field's comment button needs from the editor around it: the open-thread counts, the
 * locale being edited, and how to open the comment panel on a field. Absent (null) outside an
 * editor of a saved item, e.g. in the new-entry form: then fields show no comment button.
 */
import { createContext, useContext } from 'react';

export interface CommentAnchor {
  /** the field path: an entry field's name, `seo.<key>`, `blocks.<blockId>.<field>` */
  field: string;
  /** the locale being edited when the field is localized; null otherwise */
  locale: string | null;
  /** how the panel names the field, e.g. "Title (de)"; absent: as the form last named it */
  label?: string;
}

export interface CommentsScope {
  /** open threads per anchorKey(field, locale) */
  counts: Map<string, number>;
  /** the locale the editor shows */
  locale: string;
  open: (anchor: CommentAnchor) => void;
  /** remembers a field's label, so the panel's "All comments" names the fields it has seen */
  name: (field: string, label: string) => void;
}

export const CommentsContext = createContext<CommentsScope | null>(null);

/**
 * Where the fields below sit inside their item: a block's fields are `blocks.<blockId>.<field>`
 * (docs/studio.md "Comments, notifications and who else is here") and named after their block.
 */
export const FieldPrefixContext = createContext<{ path: string; label: string }>({ path: '', label: '' });

export function useCommentsScope(): CommentsScope | null {
  return useContext(CommentsContext);
}
