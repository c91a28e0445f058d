/**
 * SVG uploads (docs/media.md "Uploading" (D50): "SVG is refused unless sanitized"). An SVG is XML that a
 * browser may run scripts from, so it is rebuilt before it is stored:
 * 1. the prolog is checked: a DOCTYPE with an internal subset or any `<!ENTITY` is refused
 *    (entity expansion attacks), then the XML declaration, comments and DOCTYPE are dropped;
 * 2. DOMPurify (over a jsdom window, loaded on the first SVG only) parses the markup as XML with
 *    its SVG profiles: scripts, event handler attributes, `javascript:` URLs, foreignObject and
 *    anything outside the SVG/filters allowlist go;
 * 3. external references go (issue 8): an `href`, `xlink:href` or `src` that is not a fragment
 *    (`#id`) or an inline raster image (`data:image/png|jpeg|gif|webp`) is removed, `url(…)` of
 *    anything else in attributes and `<style>` becomes `none`, `@import` is dropped, so a stored
 *    SVG never makes a browser fetch anything (tracking pixels, remote fonts or images);
 * 4. the surviving `<svg>` root (SVG namespace required) is serialized again as XML.
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

/** True for a reference that points outside the document (anything but `#id` or inline raster data). */
function isExternal(ref: string): boolean {
  const v = ref.trim();
  return !(v.startsWith('#') || /^data:image\/(png|jpe?g|gif|webp)[;,]/i.test(v));
}

/**
 * DOMPurify lowercases its SVG allowlists, but parsed as XML (case-sensitive) camelCase names
 * such as `linearGradient`, `feGaussianBlur` or `viewBox` would then not match and be stripped,
 * breaking gradients, clip paths, filters and scaling. The same allowlist entries in their SVG
 * spelling (nothing outside DOMPurify's own lists: no `use`, `animate`, `foreignObject`).
 */
const CAMEL_TAGS = [
  'altGlyph',
  'altGlyphDef',
  'altGlyphItem',
  'animateColor',
  'animateMotion',
  'animateTransform',
  'clipPath',
  'glyphRef',
  'linearGradient',
  'radialGradient',
  'textPath',
  'feBlend',
  'feColorMatrix',
  'feComponentTransfer',
  'feComposite',
  'feConvolveMatrix',
  'feDiffuseLighting',
  'feDisplacementMap',
  'feDistantLight',
  'feDropShadow',
  'feFlood',
  'feFuncA',
  'feFuncB',
  'feFuncG',
  'feFuncR',
  'feGaussianBlur',
  'feImage',
  'feMerge',
  'feMergeNode',
  'feMorphology',
  'feOffset',
  'fePointLight',
  'feSpecularLighting',
  'feSpotLight',
  'feTile',
  'feTurbulence',
];
const CAMEL_ATTRIBUTES = [
  'viewBox',
  'preserveAspectRatio',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'patternUnits',
  'patternContentUnits',
  'patternTransform',
  'clipPathUnits',
  'maskUnits',
  'maskContentUnits',
  'markerWidth',
  'markerHeight',
  'markerUnits',
  'refX',
  'refY',
  'filterUnits',
  'primitiveUnits',
  'stdDeviation',
  'textLength',
  'lengthAdjust',
  'startOffset',
  'baseFrequency',
  'numOctaves',
  'stitchTiles',
  'kernelMatrix',
  'kernelUnitLength',
  'surfaceScale',
  'specularConstant',
  'specularExponent',
  'diffuseConstant',
  'tableValues',
  'xChannelSelector',
  'yChannelSelector',
  'pointsAtX',
  'pointsAtY',
  'pointsAtZ',
  'limitingConeAngle',
  'edgeMode',
  'targetX',
  'targetY',
  'preserveAlpha',
  'glyphRef',
];

const CSS_URL = /url\(\s*(['"]?)([^'")]*)\1\s*\)/gi;
const REFERENCE_ATTRIBUTES = new Set(['href', 'xlink:href', 'src']);

/** CSS with external `url(…)` replaced by `none` and `@import` rules removed. */
export function stripExternalCss(css: string): string {
  return css.replace(/@import[^;]*;?/gi, '').replace(CSS_URL, (match, _q: string, ref: string) => (isExternal(ref) ? 'none' : match));
}

let purifier: Promise<{ purify: DOMPurifyInstance; serialize: (node: Node) => string }> | null = null;

/** One DOMPurify bound to one jsdom window for the process, created on first use. */
function loadPurifier() {
  purifier ??= (async () => {
    const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([import('jsdom'), import('dompurify')]);
    const { window } = new JSDOM('');
    const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
    purify.addHook('uponSanitizeAttribute', (_node, data) => {
      if (REFERENCE_ATTRIBUTES.has(data.attrName.toLowerCase())) {
        if (isExternal(data.attrValue)) data.keepAttr = false;
      } else if (/url\(|@import/i.test(data.attrValue)) {
        data.attrValue = stripExternalCss(data.attrValue);
      }
    });
    purify.addHook('uponSanitizeElement', (node, data) => {
      if (data.tagName === 'style' && node.textContent) node.textContent = stripExternalCss(node.textContent);
    });
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
    ADD_TAGS: CAMEL_TAGS,
    ADD_ATTR: CAMEL_ATTRIBUTES,
    RETURN_DOM: true,
  }) as unknown as Element | null;
  // A document that is not well-formed XML comes back empty (or as null).
  const root = Array.from(body?.children ?? []).find((el) => el.localName === 'svg' && el.namespaceURI === SVG_NS);
  if (!root) throw new UnsafeSvgError('the SVG is not well-formed or has no <svg> root in the SVG namespace');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${serialize(root)}\n`;
}
