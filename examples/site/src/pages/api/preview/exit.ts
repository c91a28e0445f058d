/**
 * `GET /api/preview/exit[?to=/en/blog/…]`: leaves preview mode (drops the preview cookie) and goes
 * back to the page given in `to` (a path of this site only), or to the home page.
 */
import type { APIRoute } from 'astro';
import { PREVIEW_COOKIE, PREVIEW_COOKIE_OPTIONS } from '../../../lib/preview-cookie';

export const GET: APIRoute = ({ url, cookies, redirect }) => {
  cookies.delete(PREVIEW_COOKIE, { path: PREVIEW_COOKIE_OPTIONS.path });
  const to = url.searchParams.get('to') ?? '/';
  // Only paths of this site: "//evil.example" or "https://…" would make this an open redirect.
  return redirect(to.startsWith('/') && !to.startsWith('//') && !to.startsWith('/\\') ? to : '/', 302);
};
