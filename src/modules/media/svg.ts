/**
 * SVG uploads (DECISIONS.md D50: "SVG is refused unless sanitized"). An SVG is XML that a
 * browser may run scripts from, so it is rebuilt before it is stored:
 * 1. the prolog is checked: a DOCTYPE with an internal subset or any `<!ENTITY` is refused
 *    (entity expansion attacks), then the XML declaration, comments and DOCTYPE are dropped;
 * 2. DOMPurify (over a jsdom window, loaded on the first SVG only) parses the markup as XML with
 *    its SVG profiles: scripts, event handler attributes, `javascript:` URLs, foreignObject and
 *    anything outside the SVG/filters allowlist go;
 * 3. the surviving `<svg>` root (SVG namespace required) is serialized again as XML.
 * What fails any step is answered 415 by the caller. Served SVG files also carry a restrictive
 * Content-Security-Policy (src/modules/media/files.ts) as a second line of defence.
 */
import type { DOMPurify as DOMPurifyInstance } from 'dompurify';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** True when the text's first element (after an optional prolog) is `<svg`. */
export function looksLikeSvg(head: string): boolean {
  const text = head.replace(/^\uFEFF/, '');
  const prolog = /^\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)\s*)*<svg[\s>]/i;
  return prolog.test(text);
}

let purifier: Promise<{ purify: DOMPurifyInstance; serialize: (node: Node) => string }> | null = null;

/** One DOMPurify bound to one jsdom window for the process, created on first use. */
function loadPurifier() {
  purifier ??= (async () => {
    const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([import('jsdom'), import('dompurify')]);
    const { window } = new JSDOM('');
    const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
    const serializer = new window.XMLSerializer();
    return { purify, serialize: (node: Node) => serializer.serializeToString(node) };
  })();
  return purifier;
}

/** Why an SVG was refused; the caller answers 415 with this message. */
export class UnsafeSvgError extends Error {}

/**
 * Returns the sanitized SVG document (UTF-8 XML text) for `source`, or throws UnsafeSvgError.
 */
export async function sanitizeSvg(source: string): Promise<string> {
  let text = source.replace(/^\uFEFF/, '');
  if (/<!ENTITY/i.test(text) || /<!DOCTYPE[^>[]*\[/i.test(text)) throw new UnsafeSvgError('SVG with entity declarations is not accepted');
  const start = text.search(/<svg[\s>]/i);
  if (start < 0 || !looksLikeSvg(text)) throw new UnsafeSvgError('not an SVG document');
  text = text.slice(start);
  const { purify, serialize } = await loadPurifier();
  const body = purify.sanitize(text, {
    USE_PROFILES: { svg: true, svgFilters: true },
    PARSER_MEDIA_TYPE: 'application/xhtml+xml',
    RETURN_DOM: true,
  }) as unknown as Element | null;
  // A document that is not well-formed XML comes back empty (or as null).
  const root = Array.from(body?.children ?? []).find((el) => el.localName === 'svg' && el.namespaceURI === SVG_NS);
  if (!root) throw new UnsafeSvgError('the SVG is not well-formed or has no <svg> root in the SVG namespace');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${serialize(root)}\n`;
}
