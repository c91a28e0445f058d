/**
 * `Idempotency-Key` on every management POST, PUT, PATCH and DELETE (api.md "Endpoints";
 * DECISIONS.md error table). Registered once in the management plugin, so every resource gets
 * it. The rules (fingerprint, 24 h retention, replay, 409 while in flight, 422 on reuse, 5xx
 * releases the key, 60 s abandonment) are in src/modules/idempotency/operations.ts.
 *
 * - The key: printable ASCII without spaces, 1 to 255 characters (a uuid is the usual choice);
 *   anything else answers 400 at `headers.idempotency-key`.
 * - The claim is taken in preValidation (after authentication and body parsing), so outcomes of
 *   body validation are stored and replayed like any other 4xx.
 * - A replay sends the stored status, body and ETag with header `Idempotent-Replayed: true`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import { invalid } from '../errors.js';
import {
  beginIdempotent,
  completeIdempotent,
  IDEMPOTENCY_KEY_PATTERN,
  releaseIdempotent,
  requestFingerprint,
  type IdempotencyClaim,
} from '../modules/idempotency/operations.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set while this request holds an idempotency key; its outcome is stored in onSend. */
    idempotencyClaim: IdempotencyClaim | null;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Response headers worth replaying with the body. */
const REPLAYED_HEADERS = ['etag', 'location'];

function headerValue(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  return Array.isArray(raw) ? raw[0] : raw;
}

export function registerIdempotency(app: FastifyInstance, ctx: Context): void {
  app.decorateRequest('idempotencyClaim', null);

  app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!WRITE_METHODS.has(request.method) || !request.actor) return;
    const key = headerValue(request);
    if (key === undefined) return;
    if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
      throw invalid('headers.idempotency-key', 'must be 1 to 255 printable characters without spaces (a uuid is recommended)');
    }
    const result = await beginIdempotent(ctx, request.actor.keyId, key, requestFingerprint(request.method, request.url, request.body));
    if (result.kind === 'proceed') {
      request.idempotencyClaim = result.claim;
      return;
    }
    const { statusCode, body, headers } = result.response;
    for (const [k, v] of Object.entries(headers)) reply.header(k, v);
    reply.header('Idempotent-Replayed', 'true');
    return reply.code(statusCode).type('application/json; charset=utf-8').send(body);
  });

  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = null;
    try {
      const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
      if (body === null) {
        // A streamed body cannot be stored: release the key rather than replay something else.
        await releaseIdempotent(ctx, claim);
        return payload;
      }
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const v = reply.getHeader(name);
        if (typeof v === 'string') headers[name] = v;
      }
      await completeIdempotent(ctx, claim, { statusCode: reply.statusCode, body, headers });
    } catch (err) {
      // The response itself is fine; a record left pending is taken over after 60 s.
      request.log.error({ err }, 'could not store the idempotent response');
    }
    return payload;
  });
}
