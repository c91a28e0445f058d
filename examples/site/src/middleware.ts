/**
 * Opens the preview session of each page request: when the visitor carries a preview cookie, its
 * token is checked with Quire (src/lib/quire.ts openPreview) and `Astro.locals.preview` holds the
 * session; an invalid or expired token clears the cookie. A published page's render collects the
 * cache tags of the answers it shows (src/lib/live.ts), for its live updates. Preview answers are
 * never stored by a browser or CDN cache (`Cache-Control: private, no-store`).
 */
import { defineMiddleware } from 'astro:middleware';
import { collectPageTags } from './lib/live';
import { openPreview } from './lib/quire';
import { PREVIEW_COOKIE, PREVIEW_COOKIE_OPTIONS } from './lib/preview-cookie';

export const onRequest = defineMiddleware(async (context, next) => {
  context.locals.preview = null;
  const token = context.cookies.get(PREVIEW_COOKIE)?.value;
  if (context.url.pathname.startsWith('/api/')) return next();
  // A published page notes the cache tags of what it shows, so live events can refresh it (src/lib/live.ts).
  if (!token) return collectPageTags(next);
  const session = await openPreview(token);
  if (!session) {
    context.cookies.delete(PREVIEW_COOKIE, { path: PREVIEW_COOKIE_OPTIONS.path });
    return collectPageTags(next);
  }
  context.locals.preview = session;
  const response = await next();
  // Redirects built with Response.redirect have immutable headers; they carry no content anyway.
  if (response.status < 300 || response.status >= 400) response.headers.set('Cache-Control', 'private, no-store');
  return response;
});
