/**
 * `GET /api/preview?token=…[&type=post&slug=…&locale=de]`: enters preview mode. The target of the
 * workspace's preview URL template, e.g.
 * `https://site.example/api/preview?type={type}&slug={slug}&locale={locale}&token={token}`, which
 * the Studio fills in with a fresh preview token (48 hours; D46).
 *
 * The token is checked with Quire first; a bad or expired one answers 401 and sets nothing. A good
 * one is stored in the HTTP-only preview cookie, and the visitor is sent to the entry's page in
 * the locale asked for (a post: /<locale>/blog/<slug>; a page: /<locale>/<slug>, the home page for
 * `home`; other types: the locale's home page).
 *
 * The cookie is SameSite=Lax over HTTP (a Studio on another port of the same host is same-site).
 * Over HTTPS it is `SameSite=None; Secure; Partitioned`, so the Studio's live preview can frame the
 * site from another domain: the partitioned cookie lives only inside that frame's top-level site.
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
  const https = url.protocol === 'https:';
  cookies.set(PREVIEW_COOKIE, token, https ? { ...PREVIEW_COOKIE_OPTIONS, secure: true, sameSite: 'none', partitioned: true } : PREVIEW_COOKIE_OPTIONS);
  const asked = url.searchParams.get('locale');
  const locale = asked && site.locales.includes(asked) ? asked : site.defaultLocale;
  // The token names the item: its own slug wins over a `slug` parameter that may be stale.
  const target =
    session.kind === 'page'
      ? session.itemSlug === 'home'
        ? `/${locale}`
        : `/${locale}/${encodeURIComponent(session.itemSlug)}`
      : session.typeSlug === 'post'
        ? `/${locale}/blog/${encodeURIComponent(session.itemSlug)}`
        : `/${locale}`;
  return redirect(target, 302);
};
