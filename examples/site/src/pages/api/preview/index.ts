/**
 * `GET /api/preview?token=…[&type=post&slug=…&locale=de]`: enters preview mode. The target of the
 * workspace's preview URL template, e.g.
 * `https://site.example/api/preview?type={type}&slug={slug}&locale={locale}&token={token}`, which
 * the Studio fills in with a fresh preview token (48 hours; D46).
 *
 * The token is checked with Quire first; a bad or expired one answers 401 and sets nothing. A good
 * one is stored in the HTTP-only preview cookie, and the visitor is sent to the entry's page in
 * the locale asked for (a post: /<locale>/blog/<slug>; other types: the locale's home page).
 */
import type { APIRoute } from 'astro';
import { PREVIEW_COOKIE, PREVIEW_COOKIE_OPTIONS } from '../../../lib/preview-cookie';
import { getSite, openPreview } from '../../../lib/quire';

export const GET: APIRoute = async ({ url, cookies, redirect }) => {
  const token = url.searchParams.get('token');
  if (!token) return Response.json({ error: 'token is required' }, { status: 400 });
  const [session, site] = await Promise.all([openPreview(token), getSite()]);
  if (!session) return Response.json({ error: 'This preview token is invalid or has expired; open the preview again from the Studio' }, { status: 401 });
  // Secure over HTTPS, so the token never travels in clear text once the site is served that way.
  cookies.set(PREVIEW_COOKIE, token, { ...PREVIEW_COOKIE_OPTIONS, secure: url.protocol === 'https:' });
  const asked = url.searchParams.get('locale');
  const locale = asked && site.locales.includes(asked) ? asked : site.defaultLocale;
  // The token names the entry: its own slug wins over a `slug` parameter that may be stale.
  const target = session.typeSlug === 'post' ? `/${locale}/blog/${encodeURIComponent(session.entrySlug)}` : `/${locale}`;
  return redirect(target, 302);
};
