/**
 * The site's configuration, read from the environment at run time (never baked into the build, so
 * one build serves any Quire):
 *
 * - `QUIRE_URL` (required): where the server reaches Quire, e.g. http://localhost:3000;
 * - `QUIRE_DELIVERY_KEY` (required): a production delivery key (`svc_live_…`), published content;
 * - `QUIRE_PREVIEW_KEY` (optional): a delivery key of the preview environment; in preview mode the
 *   lists and pages are read with it, so drafts show there too (without it only the entry named by
 *   the preview token shows its working copy);
 * - `QUIRE_WEBHOOK_SECRET` (optional): the `whsec_…` secret of the Quire webhook that calls
 *   `/api/revalidate`; without it that endpoint answers 503;
 * - `PUBLIC_QUIRE_URL`, `PUBLIC_QUIRE_DELIVERY_KEY` (optional): the Quire URL and the delivery key
 *   that the BROWSER uses on the "latest" page. The key is visible to every visitor: give it a
 *   production delivery key whitelisted to the types it shows. The URL defaults to QUIRE_URL;
 * - `QUIRE_STUDIO_ORIGIN` (optional): the origin of the Quire Studio whose live preview frames this
 *   site; only its `postMessage` update events refresh a preview. Defaults to the origin of
 *   PUBLIC_QUIRE_URL (the Studio is served by Quire at /studio);
 * - `SITE_CACHE_SECONDS` (optional, default 300): how long a delivery answer stays in the site's
 *   cache when no webhook or live event drops it first;
 * - `SITE_LIVE_UPDATES` (optional, default `on`): `off` stops the site's subscription to Quire's
 *   live events (src/lib/live.ts): cached answers then change by webhook or expiry only, and open
 *   pages no longer refresh themselves.
 */

export interface SiteConfig {
  quireUrl: string;
  deliveryKey: string;
  previewKey: string | null;
  webhookSecret: string | null;
  publicQuireUrl: string;
  publicDeliveryKey: string | null;
  studioOrigin: string;
  cacheSeconds: number;
  liveUpdates: boolean;
}

function optional(name: string): string | null {
  const value = process.env[name]?.trim();
  return value ? value : null;
}

function required(name: string): string {
  const value = optional(name);
  if (value === null) throw new Error(`${name} is not set: the example site needs it (see examples/site/README.md)`);
  return value;
}

/** Reads the environment; throws naming the variable when a required one is missing or bad. */
export function siteConfig(): SiteConfig {
  const quireUrl = required('QUIRE_URL').replace(/\/+$/, '');
  const seconds = Number(optional('SITE_CACHE_SECONDS') ?? '300');
  if (!Number.isFinite(seconds) || seconds < 0) throw new Error('SITE_CACHE_SECONDS must be a number of seconds (0 turns the cache off)');
  const live = optional('SITE_LIVE_UPDATES') ?? 'on';
  if (live !== 'on' && live !== 'off') throw new Error('SITE_LIVE_UPDATES must be on or off');
  return {
    quireUrl,
    deliveryKey: required('QUIRE_DELIVERY_KEY'),
    previewKey: optional('QUIRE_PREVIEW_KEY'),
    webhookSecret: optional('QUIRE_WEBHOOK_SECRET'),
    publicQuireUrl: (optional('PUBLIC_QUIRE_URL') ?? quireUrl).replace(/\/+$/, ''),
    publicDeliveryKey: optional('PUBLIC_QUIRE_DELIVERY_KEY'),
    studioOrigin: new URL(optional('QUIRE_STUDIO_ORIGIN') ?? optional('PUBLIC_QUIRE_URL') ?? quireUrl).origin,
    cacheSeconds: seconds,
    liveUpdates: live === 'on',
  };
}
