/**
 * `POST /api/revalidate`: the target of a Quire webhook (D82). The request must carry a valid
 * Standard Webhooks signature (headers `webhook-id`, `webhook-timestamp`, `webhook-signature`,
 * HMAC-SHA256 with QUIRE_WEBHOOK_SECRET, timestamp within 5 minutes); otherwise 401 and nothing
 * changes. A verified event drops the cached answers it affects (src/lib/quire.ts tagsForEvent),
 * so the next request for them reads Quire again. Answers `{revalidated, tags}`.
 */
import type { APIRoute } from 'astro';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { siteConfig } from '../../lib/config';
import { siteCache, tagsForEvent } from '../../lib/quire';

export const POST: APIRoute = async ({ request }) => {
  const secret = siteConfig().webhookSecret;
  const verifier = secret ? new Webhook(secret) : null;
  if (!verifier) return Response.json({ error: 'QUIRE_WEBHOOK_SECRET is not set: revalidation is off' }, { status: 503 });
  // The signature covers the exact bytes: read the body as text, verify, then parse.
  const body = await request.text();
  let payload: unknown;
  try {
    payload = verifier.verify(body, {
      'webhook-id': request.headers.get('webhook-id') ?? '',
      'webhook-timestamp': request.headers.get('webhook-timestamp') ?? '',
      'webhook-signature': request.headers.get('webhook-signature') ?? '',
    });
  } catch (err) {
    if (err instanceof WebhookVerificationError) return Response.json({ error: `Invalid webhook: ${err.message}` }, { status: 401 });
    throw err;
  }
  const tags = tagsForEvent(payload);
  const cache = siteCache();
  const revalidated = tags === 'all' ? cache.clear() : cache.invalidate(tags);
  return Response.json({ revalidated, tags });
};
