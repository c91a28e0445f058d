/**
 * `Idempotency-Key` on every management POST, PUT, PATCH and DELETE (docs/api.md "Idempotency-Key";
 * docs/api.md "Errors" table). Registered once in the management plugin, so every resource gets
 * it. The rules (fingerprint, 24 h retention, replay, 409 while in flight, 422 on reuse, 5xx
 * releases the key, 60 s abandonment) are in src/modules/idempotency/operations.ts.
 *
 * - The key is a uuid (docs/api.md "Idempotency-Key": a UUID string); anything else answers 400 at
 *   `headers.idempotency-key` before the key is claimed or the handler runs, so nothing is written.
 * - The claim is taken in preValidation (after authentication and body parsing), so outcomes of
 *   body validation are stored and replayed like any other 4xx.
 * - A replay sends the stored status, body and ETag with header `Idempotent-Replayed: true`.
 * - Multipart bodies (uploads) are only known once the handler has read them: the hook leaves
 *   the claim to the handler, which calls claimAfterBody with what identifies the upload (the
 *   file's SHA-256, its name and the form fields), not the raw bytes, whose multipart boundary
 *   changes on every retry.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import { invalid } from '../errors.js';
import { isUuid } from '../lib/ids.js';
import { requestFingerprint, runIdempotent, type StoredResponse } from '../modules/idempotency/operations.js';

/** A request's running idempotency cycle, waiting for the handler's outcome. */
interface IdempotencyHold {
  cycle: Promise<unknown>;
  finish: (response: StoredResponse) => void;
  abandon: (err: Error) => void;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The answer holds a secret shown once: never stored for Idempotency-Key replays. */
    secretAnswer?: boolean;
  }
  interface FastifyRequest {
    /** Set while this request holds an idempotency key; onSend hands its outcome to the cycle. */
    idempotencyHold: IdempotencyHold | null;
    /** A multipart request's Idempotency-Key, claimed by its handler through claimAfterBody. */
    idempotencyDeferredKey: string | null;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Response headers worth replaying with the body. */
const REPLAYED_HEADERS = ['etag', 'location'];

function headerValue(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  return Array.isArray(raw) ? raw[0] : raw;
}

/** Thrown into a held cycle when the response cannot be stored (a stream): the key is released. */
class Unstorable extends Error {}

/**
 * Claims `key` for this request with `fingerprint`, through runIdempotent (the same cycle any
 * entry point runs): its `run` is this request's handler, whose outcome onSend hands over. Returns
 * true when the stored response was replayed on `reply` (the caller must stop), false when the
 * request should proceed. Throws 409 IDEMPOTENCY_KEY_IN_USE / 422 IDEMPOTENCY_KEY_REUSED.
 */
async function claim(ctx: Context, request: FastifyRequest, reply: FastifyReply, key: string, fingerprint: string): Promise<boolean> {
  let started!: () => void;
  const begun = new Promise<'proceed'>((resolve) => (started = () => resolve('proceed')));
  let finish!: IdempotencyHold['finish'];
  let abandon!: IdempotencyHold['abandon'];
  const outcome = new Promise<StoredResponse>((resolve, reject) => {
    finish = resolve;
    abandon = reject;
  });
  const cycle = runIdempotent(ctx, request.actor.keyId, key, fingerprint, () => {
    started();
    return outcome;
  });
  const first = await Promise.race([begun, cycle]);
  if (first === 'proceed') {
    request.idempotencyHold = { cycle, finish, abandon };
    return false;
  }
  const { statusCode, body, headers } = first.response;
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  reply.header('Idempotent-Replayed', 'true');
  reply.code(statusCode).type('application/json; charset=utf-8').send(body);
  return true;
}

/**
 * For handlers of multipart writes: takes the deferred Idempotency-Key claim once the body is
 * read, with `identity` standing for the body (see the module docstring). Returns true when the
 * first response was replayed and the handler must return `reply` without doing the work.
 */
export async function claimAfterBody(ctx: Context, request: FastifyRequest, reply: FastifyReply, identity: unknown): Promise<boolean> {
  const key = request.idempotencyDeferredKey;
  if (!key) return false;
  request.idempotencyDeferredKey = null;
  return claim(ctx, request, reply, key, requestFingerprint(request.method, request.url, { multipart: identity }));
}

export function registerIdempotency(app: FastifyInstance, ctx: Context): void {
  app.decorateRequest('idempotencyHold', null);
  app.decorateRequest('idempotencyDeferredKey', null);

  app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    // Routes whose answer holds a secret shown once (a new API key, an invitation link) keep no
    // copy of it: the header is ignored there (`config.secretAnswer`).
    if (!WRITE_METHODS.has(request.method) || !request.actor || request.routeOptions.config?.secretAnswer) return;
    const key = headerValue(request);
    if (key === undefined) return;
    if (!isUuid(key)) throw invalid('headers.idempotency-key', 'must be a uuid');
    if (request.isMultipart?.()) {
      request.idempotencyDeferredKey = key;
      return;
    }
    if (await claim(ctx, request, reply, key, requestFingerprint(request.method, request.url, request.body))) return reply;
  });

  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const hold = request.idempotencyHold;
    if (!hold) return payload;
    request.idempotencyHold = null;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    if (body === null) {
      // A streamed body cannot be stored: release the key rather than replay something else.
      hold.abandon(new Unstorable());
    } else {
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const v = reply.getHeader(name);
        if (typeof v === 'string') headers[name] = v;
      }
      hold.finish({ statusCode: reply.statusCode, body, headers });
    }
    try {
      await hold.cycle;
    } catch (err) {
      if (!(err instanceof Unstorable)) request.log.error({ err }, 'could not release the idempotency key');
    }
    return payload;
  });
}
