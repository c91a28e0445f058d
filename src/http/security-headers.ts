/**
 * Security headers of the pages a browser renders (docs/security.md "Security headers"): the
 * Studio (`/studio`), the API reference (`/docs`) and media files (`/media/files/…`). Each class
 * gets its own Content-Security-Policy through @fastify/helmet, plus `X-Content-Type-Options:
 * nosniff`, `Referrer-Policy: strict-origin-when-cross-origin`, `Cross-Origin-Opener-Policy:
 * same-origin` and, while FRAME_ANCESTORS is `none`, `X-Frame-Options: DENY`. The JSON APIs are
 * left alone: a browser never renders them as a page.
 *
 * The rules, in words:
 * - No page runs inline script: `script-src 'self'` (the Studio's Vite build and Swagger UI load
 *   every script from a file; `script-src-attr 'none'` forbids event-handler attributes).
 * - Styles allow 'unsafe-inline': Mantine writes its CSS variables into a `<style>` element at run
 *   time and its components, Tiptap and Swagger UI set `style` attributes; a style cannot run
 *   script, and a nonce would need the static index.html rewritten per request.
 * - Nothing may frame these pages (`frame-ancestors 'none'`) unless FRAME_ANCESTORS names who may.
 * - Web workers start only from the Studio's own script files (`worker-src 'self'`), never from a
 *   blob: or data: URL.
 * - The Studio frames the workspace's preview URL (live preview): `frame-src` is
 *   STUDIO_PREVIEW_ORIGINS or, unset, any http(s) origin, since each workspace's admins set their
 *   own preview URL template at run time. The frame itself is sandboxed by the Studio.
 * - Media files are documents nobody should script: `default-src 'none'` and `sandbox`, with
 *   `Cross-Origin-Resource-Policy: cross-origin` so sites on other origins may still embed them.
 * Input: the route's URL when it is added; output: the route's helmet options (config.helmet).
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import helmet from '@fastify/helmet';
import type { Config } from '../config.js';
import { FILES_PATH } from '../modules/media/locations.js';

type Directives = Record<string, string[]>;

/** The three classes of pages, by path prefix; other routes get no security headers. */
export type PageClass = 'studio' | 'docs' | 'media';

/** Which class a route path belongs to, or null for the APIs and the rest. */
export function pageClassOf(url: string): PageClass | null {
  if (url === '/studio' || url.startsWith('/studio/')) return 'studio';
  if (url === '/docs' || url.startsWith('/docs/')) return 'docs';
  if (url.startsWith(`${FILES_PATH}/`)) return 'media';
  return null;
}

/** The CSP directives of one class of pages under this configuration. */
export function cspDirectives(kind: PageClass, config: Pick<Config, 'frameAncestors' | 'studioPreviewOrigins'>): Directives {
  const frameAncestors = [...config.frameAncestors];
  if (kind === 'media') {
    // An SVG or a PDF opened on our origin can neither run script nor reach anything: it may
    // show its own inline styles and data: images only (raster images and videos render as the
    // document itself, which default-src does not restrict).
    return {
      'default-src': ["'none'"],
      'style-src': ["'unsafe-inline'"],
      'img-src': ["'self'", 'data:'],
      'media-src': ["'self'"],
      'frame-ancestors': frameAncestors,
      sandbox: [],
    };
  }
  const common: Directives = {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': frameAncestors,
  };
  if (kind === 'docs') return { ...common, 'img-src': ["'self'", 'data:'], 'frame-src': ["'none'"] };
  return {
    ...common,
    // Media thumbnails come from PUBLIC_URL, MEDIA_PUBLIC_URL (a CDN) or an imported asset's
    // remote URL: any http(s) origin; local previews of a chosen file are blob: URLs.
    'img-src': ["'self'", 'data:', 'blob:', 'https:', 'http:'],
    'media-src': ["'self'", 'blob:', 'https:', 'http:'],
    'frame-src': config.studioPreviewOrigins ? ["'self'", ...config.studioPreviewOrigins] : ["'self'", 'https:', 'http:'],
    // Workers only from the build's own files (the GraphQL explorer's editor workers are
    // /studio/assets/*.worker-*.js, docs/studio.md "GraphQL explorer"): no blob: or data: worker.
    'worker-src': ["'self'"],
  };
}

/** The helmet options of one class: its CSP and the headers every class shares. */
function helmetOptions(kind: PageClass, config: Pick<Config, 'frameAncestors' | 'studioPreviewOrigins'>) {
  const denyFraming = config.frameAncestors.length === 1 && config.frameAncestors[0] === "'none'";
  return {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(kind, config) },
    crossOriginOpenerPolicy: { policy: 'same-origin' as const },
    crossOriginResourcePolicy: { policy: kind === 'media' ? ('cross-origin' as const) : ('same-origin' as const) },
    // Origins in FRAME_ANCESTORS cannot be said in X-Frame-Options (ALLOW-FROM is obsolete):
    // then only the CSP speaks.
    xFrameOptions: denyFraming ? { action: 'deny' as const } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' as const },
    // HSTS belongs to the TLS terminator: Quire may be served over plain http on a private
    // network, and a max-age it sent could not be taken back by the operator.
    strictTransportSecurity: false,
    // Helmet's COEP default is off; cross-origin images (CDN, remote assets) must keep loading.
    crossOriginEmbedderPolicy: false,
  };
}

/**
 * Registers the headers in `app`: helmet off by default, and an onRoute hook giving each route
 * of the three classes its options. `app` is the encapsulated context of those routes (buildApp
 * registers them in one), registered before them: helmet's onRequest hooks then run for the
 * requests of that context only, never for the APIs.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'frameAncestors' | 'studioPreviewOrigins'>): Promise<void> {
  const byClass = {
    studio: helmetOptions('studio', config),
    docs: helmetOptions('docs', config),
    media: helmetOptions('media', config),
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    const kind = pageClassOf(route.url);
    if (!kind) return;
    route.config = Object.assign(route.config ?? {}, { helmet: byClass[kind] });
  });
  await app.register(helmet, { global: false });
}
