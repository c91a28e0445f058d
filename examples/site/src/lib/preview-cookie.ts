/**
 * The preview cookie: it holds the preview token that `/api/preview` received from the Studio's
 * "Open preview" link (the workspace's preview URL template). HTTP-only (scripts never see the
 * token), SameSite=Lax (set by a top-level navigation from the Studio), and kept for 48 hours,
 * the lifetime of a preview token; an expired token is found out by Quire and the cookie dropped.
 */
export const PREVIEW_COOKIE = 'quire_preview';

export const PREVIEW_COOKIE_OPTIONS: { path: string; httpOnly: boolean; sameSite: 'lax'; maxAge: number } = {
  path: '/',
  httpOnly: true,
  sameSite: 'lax',
  maxAge: 48 * 3600,
};
