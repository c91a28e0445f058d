/**
 * Click-to-edit in a preview (`@quire/client/visual-editing`; Quire's docs/visual-editing.md
 * "Click to edit", D141). A page rendered from delivery answers read with `stega=true` (REST) or
 * `extensions: {stega: true}` (GraphQL) carries, hidden at the end of each text string, where the
 * string comes from (`{origin: 'quire', href, kind, id, content_type?, field, locale, path?}`).
 * `enableVisualEditing()` finds those strings in the page (text nodes, and `alt` and `title`
 * attributes) and makes each element holding one editable:
 *
 * - an outline with the field's name is drawn over it on hover and on keyboard focus;
 * - it is reachable with Tab (`tabindex="0"` when it was not focusable) and says so to assistive
 *   technology (`aria-description`);
 * - a click, Enter or Space opens the field: inside the Quire Studio's preview pane (the page is
 *   framed by the Studio's origin) by `postMessage({type: 'quire:edit', ...origin})` to the Studio,
 *   elsewhere in a new tab at the Studio URL (`href`: item, field, locale, block).
 *
 * It watches the page (MutationObserver), so content rendered later is found too. Only for
 * previews: production answers carry no origins. Browser-only; decoding is `@vercel/stega`'s.
 */
import { vercelStegaClean, vercelStegaDecode, vercelStegaSplit } from '@vercel/stega';

/** Where a string comes from, as Quire encodes it. */
export interface EditTarget {
  origin: 'quire';
  /** The Studio URL editing the field (absolute). */
  href: string;
  kind: 'entry' | 'page' | 'block' | 'asset';
  id: string;
  content_type?: string;
  field: string;
  locale: string;
  /** Blocks: the block's place in its page (`blocks.1.children.0`). */
  path?: string;
}

/** What the Studio's preview pane receives on a click. */
export type EditMessage = { type: 'quire:edit' } & EditTarget;

export interface VisualEditingOptions {
  /** Where to look; default `document.body`. */
  root?: Element;
  /**
   * The Studio's origin (`https://cms.example.com`): messages go to the parent frame only when it
   * has this origin. Default: the origin of each target's `href`.
   */
  studioOrigin?: string;
  /** Replaces opening the field (a router of your own, tests). */
  onEdit?: (target: EditTarget, element: Element) => void;
}

export interface VisualEditing {
  /** Scans the page again now (it also rescans on its own after changes). */
  refresh(): void;
  /** The elements made editable, with their targets. */
  elements(): { element: Element; target: EditTarget }[];
  /** Removes outlines, listeners and the attributes it added. */
  disable(): void;
}

/** The Quire origin hidden in `text`, or null when it holds none (or another tool's). */
export function readEditTarget(text: string | null | undefined): EditTarget | null {
  if (!text || vercelStegaSplit(text).encoded === '') return null;
  const decoded = vercelStegaDecode<Record<string, unknown>>(text);
  if (!decoded || decoded.origin !== 'quire' || typeof decoded.href !== 'string' || typeof decoded.field !== 'string') return null;
  return decoded as unknown as EditTarget;
}

/**
 * `value` without hidden origins: a string cleaned, arrays and objects cleaned throughout
 * (`vercelStegaClean`). For text that must stay plain in a stega preview: `<title>`, meta tags,
 * navigation labels, values compared or formatted. Usable on the server too.
 */
export function stegaClean<T>(value: T): T {
  return vercelStegaClean(value);
}

const MARK = 'data-quire-edit';
const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]';

/** Whether the page is framed by `origin` (ancestorOrigins where the browser has it, else the referrer). */
function framedBy(origin: string): boolean {
  if (window.parent === window) return false;
  const ancestors = window.location.ancestorOrigins;
  if (ancestors && ancestors.length > 0) return ancestors[0] === origin;
  try {
    return document.referrer !== '' && new URL(document.referrer).origin === origin;
  } catch {
    return false;
  }
}

/** Opens `target` in the Studio: a message to the framing Studio, else a new tab. */
function openInStudio(target: EditTarget, studioOrigin: string | undefined): void {
  const origin = studioOrigin ?? new URL(target.href).origin;
  if (framedBy(origin)) {
    const message: EditMessage = { type: 'quire:edit', ...target };
    window.parent.postMessage(message, origin);
    return;
  }
  window.open(target.href, '_blank', 'noopener');
}

/** The outline drawn over the element under the pointer or focus. */
function createOutline(): { box: HTMLDivElement; show(element: Element, target: EditTarget): void; hide(): void; destroy(): void } {
  const box = document.createElement('div');
  box.setAttribute('aria-hidden', 'true');
  box.setAttribute('data-quire-outline', '');
  Object.assign(box.style, {
    position: 'fixed',
    pointerEvents: 'none',
    zIndex: '2147483647',
    border: '2px solid #3b5bdb',
    borderRadius: '3px',
    boxSizing: 'border-box',
    display: 'none',
  });
  const label = document.createElement('span');
  Object.assign(label.style, {
    position: 'absolute',
    top: '-1.5em',
    left: '-2px',
    font: '12px/1.4 system-ui, sans-serif',
    background: '#3b5bdb',
    color: '#fff',
    padding: '0 6px',
    borderRadius: '3px 3px 0 0',
    whiteSpace: 'nowrap',
  });
  box.append(label);
  let current: Element | null = null;
  const place = () => {
    if (!current) return;
    const r = current.getBoundingClientRect();
    Object.assign(box.style, { left: `${r.left - 2}px`, top: `${r.top - 2}px`, width: `${r.width + 4}px`, height: `${r.height + 4}px` });
  };
  window.addEventListener('scroll', place, { capture: true, passive: true });
  window.addEventListener('resize', place, { passive: true });
  return {
    box,
    show(element, target) {
      current = element;
      label.textContent = target.locale ? `${target.field} (${target.locale})` : target.field;
      box.style.display = 'block';
      place();
    },
    hide() {
      current = null;
      box.style.display = 'none';
    },
    destroy() {
      window.removeEventListener('scroll', place, { capture: true });
      window.removeEventListener('resize', place);
      box.remove();
    },
  };
}

/**
 * Makes every element of the page holding a Quire origin editable (see above). Call it in preview
 * mode only; returns a handle to rescan or turn it off.
 */
export function enableVisualEditing(options: VisualEditingOptions = {}): VisualEditing {
  const root = options.root ?? document.body;
  const targets = new Map<Element, EditTarget>();
  const added = new Map<Element, string[]>();
  const outline = createOutline();
  document.body.append(outline.box);

  const mark = (element: Element, target: EditTarget) => {
    if (targets.has(element)) return;
    targets.set(element, target);
    const attrs = [MARK];
    element.setAttribute(MARK, target.field);
    if (!element.matches(FOCUSABLE)) {
      element.setAttribute('tabindex', '0');
      attrs.push('tabindex');
    }
    if (!element.hasAttribute('aria-description')) {
      element.setAttribute('aria-description', `Edit ${target.field} in Quire Studio`);
      attrs.push('aria-description');
    }
    added.set(element, attrs);
  };

  const scan = () => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || outline.box.contains(parent)) continue;
      const target = readEditTarget(node.nodeValue);
      if (target) mark(parent, target);
    }
    for (const element of root.querySelectorAll('[alt], [title]')) {
      const target = readEditTarget(element.getAttribute('alt')) ?? readEditTarget(element.getAttribute('title'));
      if (target) mark(element, target);
    }
  };

  const editable = (node: EventTarget | null): Element | null => {
    const element = node instanceof Element ? node.closest(`[${MARK}]`) : null;
    return element && root.contains(element) && targets.has(element) ? element : null;
  };
  const open = (element: Element) => {
    const target = targets.get(element)!;
    if (options.onEdit) options.onEdit(target, element);
    else openInStudio(target, options.studioOrigin);
  };

  const onOver = (e: Event) => {
    const element = editable(e.target);
    if (element) outline.show(element, targets.get(element)!);
  };
  const onOut = (e: Event) => {
    const related = (e as MouseEvent | FocusEvent).relatedTarget;
    if (editable(e.target) && editable(related as EventTarget | null) !== editable(e.target)) outline.hide();
  };
  const onClick = (e: MouseEvent) => {
    const element = editable(e.target);
    if (!element || e.button !== 0) return;
    // The preview's own links and handlers do not run: the click edits.
    e.preventDefault();
    e.stopPropagation();
    open(element);
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const element = editable(e.target);
    if (!element || element !== e.target) return;
    e.preventDefault();
    open(element);
  };

  // Clicks and keys in the capture phase, so the page's own handlers do not run first.
  const listeners: [string, EventListener, boolean][] = [
    ['mouseover', onOver, false],
    ['mouseout', onOut, false],
    ['focusin', onOver, false],
    ['focusout', onOut, false],
    ['click', onClick as EventListener, true],
    ['keydown', onKey as EventListener, true],
  ];
  for (const [type, listener, capture] of listeners) document.addEventListener(type, listener, capture);

  let pending = false;
  const observer = new MutationObserver((records) => {
    if (pending || records.every((r) => outline.box.contains(r.target))) return;
    pending = true;
    queueMicrotask(() => {
      pending = false;
      scan();
    });
  });
  observer.observe(root, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['alt', 'title'] });
  scan();

  return {
    refresh: scan,
    elements: () => [...targets].map(([element, target]) => ({ element, target })),
    disable() {
      observer.disconnect();
      for (const [type, listener, capture] of listeners) document.removeEventListener(type, listener, capture);
      outline.destroy();
      for (const [element, attrs] of added) for (const a of attrs) element.removeAttribute(a);
      targets.clear();
      added.clear();
    },
  };
}
