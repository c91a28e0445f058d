/**
 * Click-to-edit in an editor (D141): the field a Studio URL names is gone to once, when the editor
 * opens; a `quire:edit` request for the editor's own item goes to the field (a block's with its
 * id), one for another item opens that item's editor at the field, on this Studio only.
 */
import { useEffect } from 'react';
import { render, screen, act } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { ErrorTarget } from './field-errors';
import { editTarget, useEditRequests } from './edit-requests';
import type { EditRequest } from './preview-protocol';

/** The editor's handler of `quire:edit` requests, as the rendered editor hands it out. */
const latest: { handler: (edit: EditRequest) => void } = { handler: () => {} };
const handler = (edit: EditRequest) => latest.handler(edit);

function Editor({ goTo }: { goTo: (t: ErrorTarget) => void }) {
  const onEdit = useEditRequests({ locales: ['en', 'de'], defaultLocale: 'en', goTo, owns: (e) => e.id === 'mine' || e.id === 'b1' });
  useEffect(() => {
    latest.handler = onEdit;
  });
  const location = useLocation();
  return <p data-testid="at">{`${location.pathname}${location.search}`}</p>;
}

function open(url: string) {
  const goTo = vi.fn();
  const router = createMemoryRouter([{ path: '*', element: <Editor goTo={goTo} /> }], { initialEntries: [url] });
  render(<RouterProvider router={router} />);
  return goTo;
}

const edit = (over: Partial<EditRequest>): EditRequest => ({ type: 'quire:edit', kind: 'entry', id: 'mine', field: 'title', locale: 'de', href: '', ...over });

describe('useEditRequests', () => {
  it('goes once to the field the URL names, in its locale (the default for an unknown one)', () => {
    expect(open('/demo/pages/home?block=b1&path=blocks.0&field=headline&locale=de').mock.calls).toEqual([[editTarget('headline', 'de', 'b1')]]);
    expect(open('/demo/content/post/hello?field=title&locale=xx').mock.calls).toEqual([[editTarget('title', 'en', null)]]);
    expect(open('/demo/content/post/hello').mock.calls).toEqual([]);
  });

  it('goes to a field of its own item, a block by its id; opens another item in its editor on this Studio only', () => {
    const goTo = open('/demo/pages/home');
    act(() => handler(edit({ kind: 'block', id: 'b1', field: 'headline', locale: 'de' })));
    expect(goTo).toHaveBeenLastCalledWith(editTarget('headline', 'de', 'b1'));
    act(() => handler(edit({ kind: 'page', id: 'mine', field: 'seo.title', locale: 'fr' })));
    expect(goTo).toHaveBeenLastCalledWith(editTarget('seo.title', 'en', null));
    act(() => handler(edit({ id: 'other', href: 'http://elsewhere.test/studio/demo/content/post/x?field=title' })));
    expect(screen.getByTestId('at')).toHaveTextContent('/demo/pages/home');
    act(() => handler(edit({ id: 'other', href: `${window.location.origin}/studio/demo/content/author/mara?field=name&locale=en` })));
    expect(screen.getByTestId('at')).toHaveTextContent('/demo/content/author/mara?field=name&locale=en');
    expect(goTo).toHaveBeenCalledTimes(2);
  });
});
