/**
 * The single sign-on provider as openid-client sees it (D121; docs/access.md "Single sign-on"):
 * discovered from OIDC_ISSUER on first use, not at startup, so a provider that is down when Quire
 * starts delays sign-ins rather than the server. The discovered client hangs off the context
 * (ctx.caches.oidc) and is discovered again after REDISCOVER_MS, or on the next use after a
 * failed discovery. Requests go through the guarded fetch of oidc-fetch.ts.
 *
 * Errors: rejects with openid-client's error when the issuer cannot be discovered (the callers
 * turn it into a refused sign-in, never a 500 page).
 */
import type * as Oidc from 'openid-client';
import type { Context } from '../../context.js';
import { AppError } from '../../errors.js';
import type { OidcSettings } from './oidc-config.js';
import { guardedFetch } from './oidc-fetch.js';

/** A discovered provider is discovered again after a day (new endpoints; keys rotate by themselves). */
const REDISCOVER_MS = 24 * 3_600_000;
/** Seconds each request to the provider may take. */
const TIMEOUT_SECONDS = 10;

/** The single sign-on settings, or 404 NOT_FOUND when OIDC_ISSUER is unset. */
export function oidcSettings(ctx: Context): OidcSettings {
  const settings = ctx.config.oidc;
  if (!settings) throw new AppError('NOT_FOUND', 'Single sign-on is not configured on this Quire (OIDC_ISSUER is unset)');
  return settings;
}

/** The redirect URI registered at the provider: `<PUBLIC_URL>/api/v1/manage/session/oidc/callback`. */
export function redirectUri(ctx: Context): string {
  return `${ctx.config.publicUrl.replace(/\/+$/, '')}/api/v1/manage/session/oidc/callback`;
}

/**
 * openid-client, loaded on first use: a Quire without single sign-on never loads it, nor the JOSE
 * library it brings (docs/scaling.md "Memory": what a serving process loads).
 */
export function openidClient(): Promise<typeof Oidc> {
  return import('openid-client');
}

async function discover(ctx: Context, settings: OidcSettings): Promise<Oidc.Configuration> {
  const oidc = await openidClient();
  const issuer = new URL(settings.issuer);
  const fetch = guardedFetch(issuer.hostname, ctx.resolveHost);
  const metadata: Partial<Oidc.ClientMetadata> = { redirect_uris: [redirectUri(ctx)], response_types: ['code'] };
  const auth = settings.clientSecret === null ? oidc.None() : oidc.ClientSecretBasic(settings.clientSecret);
  const config = await oidc.discovery(issuer, settings.clientId, metadata, auth, {
    [oidc.customFetch]: fetch,
    timeout: TIMEOUT_SECONDS,
    // Plain http only for an issuer on loopback (oidc-config.ts refuses it anywhere else).
    execute: settings.loopback && issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
  });
  config[oidc.customFetch] = fetch;
  config.timeout = TIMEOUT_SECONDS;
  return config;
}

/** The discovered provider of this context (discovering it when needed). */
export function oidcClient(ctx: Context): Promise<Oidc.Configuration> {
  const settings = oidcSettings(ctx);
  const slot = ctx.caches.oidc;
  const now = Date.now();
  if (slot.client && slot.discoveredAt !== undefined && now - slot.discoveredAt < REDISCOVER_MS) return slot.client;
  const pending = discover(ctx, settings);
  slot.client = pending;
  slot.discoveredAt = now;
  pending.catch(() => {
    // A failed discovery is not remembered: the next sign-in tries again.
    if (slot.client === pending) {
      slot.client = undefined;
      slot.discoveredAt = undefined;
    }
  });
  return pending;
}
