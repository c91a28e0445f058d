/**
 * buildApp(ctx): the Fastify instance with every route, hook and schema, without listen().
 * Tests drive it through inject(); src/server.ts adds listen() and shutdown.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { closeContext, type Context } from './context.js';
import { pingDb } from './db/ping.js';
import { AppError } from './errors.js';
import { checkJsonShape } from './lib/json-limits.js';
import { lazyChildLogger } from './lib/logger.js';
import type { Logger } from 'pino';
import { clientErrorHandler, newRequestId } from './http/client-errors.js';
import { registerErrorHandler, sendError, toAppError } from './http/error-handler.js';
import { registerCors } from './http/cors.js';
import { registerNotFound } from './http/not-found.js';
import { assertUrlWithoutNul, registerNulGuard } from './http/nul-guard.js';
import { lazySerializerFactory, validatorCompiler } from './http/validator.js';
import { swaggerOptions } from './http/openapi.js';
import { managementRoutes } from './http/routes/management/index.js';
import { deliveryRoutes } from './http/routes/delivery/index.js';
import { mediaFileRoutes } from './http/routes/media-files.js';
import { studioRoutes } from './http/routes/studio.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { DeliveryReplay } from './http/delivery-replay.js';

/** JSON bodies above this answer 413 PAYLOAD_TOO_LARGE (docs/api.md "Errors"). */
export const JSON_BODY_LIMIT = 1024 * 1024;

export interface BuildAppOptions {
  /** Log requests through the context's logger (level from config). Off unless a test asks. */
  logger?: boolean;
  /** The Studio build served at /studio/ (default: dist/studio of the repository). */
  studioDir?: string;
}

export async function buildApp(ctx: Context, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // The context's logger: secrets are redacted there, request URLs included (src/lib/logger.ts).
    ...(options.logger === false
      ? {}
      : {
          loggerInstance: ctx.log as FastifyBaseLogger,
          // Each request's child logger is made on its first enabled log call (src/lib/logger.ts).
          childLoggerFactory: (logger, bindings, opts) => lazyChildLogger(logger as Logger, bindings, opts) as FastifyBaseLogger,
        }),
    bodyLimit: JSON_BODY_LIMIT,
    // Timeouts (docs/security.md): a client that trickles its headers or body, idles on a
    // connection or stops reading is cut off; a request whose handler runs too long answers 503.
    // Node checks the headers and request timeouts every connectionsCheckingInterval, so it is
    // kept well below them.
    http: {
      headersTimeout: ctx.config.httpHeadersTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(ctx.config.httpHeadersTimeoutMs / 4))),
    },
    requestTimeout: ctx.config.httpRequestTimeoutMs,
    keepAliveTimeout: ctx.config.httpKeepAliveTimeoutMs,
    connectionTimeout: ctx.config.httpRequestTimeoutMs + ctx.config.httpHandlerTimeoutMs,
    handlerTimeout: ctx.config.httpHandlerTimeoutMs,
    requestIdHeader: false,
    genReqId: newRequestId,
    clientErrorHandler,
    ajv: { customOptions: { strict: false } },
    // Response serializers are compiled on each route's first answer (src/http/validator.ts).
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory } },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // Requests arriving while the server closes get our own 503 envelope (hook below).
    return503OnClosing: false,
    // Router-level failures (malformed URL, over-long path parameter) leave in the envelope too.
    frameworkErrors: (error, request, reply) => {
      sendError(request, reply, toAppError(error));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // The API speaks JSON (and multipart for uploads, registered by the media routes).
  app.removeContentTypeParser('text/plain');
  // JSON bodies are measured before they are parsed: nesting and array length are bounded in one
  // pass over the text (src/lib/json-limits.ts), then Fastify's own parser (prototype-poisoning
  // safe) runs.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const violation = checkJsonShape(body as string);
    if (violation) return done(new AppError('VALIDATION_FAILED', 'Validation failed', [{ path: 'body', message: violation.message }]), undefined);
    return parseJson(request, body as string, done);
  });
  registerErrorHandler(app);
  registerNotFound(app);
  registerNulGuard(app);

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // What the context opened (media storage, for S3 a connection pool; Redis) closes with the app.
  app.addHook('onClose', async () => closeContext(ctx));
  // One hook for what every request needs first: its id header, shutdown, NUL-free URL; then a
  // delivery GET repeating one the cache has just answered is answered again at once
  // (src/http/delivery-replay.ts).
  const replay = new DeliveryReplay(ctx);
  app.decorate('deliveryReplay', replay);
  // Callback-style, so a replay answered at once (SQLite) makes no promise: a sent reply ends the
  // hooks without `done`.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    let answered: boolean | Promise<boolean>;
    try {
      assertUrlWithoutNul(request.url);
      if (closing) {
        reply.header('Connection', 'close');
        throw new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down; retry shortly');
      }
      answered = replay.enabled && replay.answer(request, reply);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (answered === false) done();
    else if (answered !== true) answered.then((sent) => void (sent || done()), done);
  });

  // The OpenAPI document (src/http/openapi.ts completes what the route schemas say); its
  // interactive reference at /docs is added with the other pages a browser renders, below.
  await app.register(swagger, swaggerOptions(ctx.config));

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async () => {
    if (!(await pingDb(ctx.db))) throw new AppError('SERVICE_UNAVAILABLE', 'Database is not reachable');
    return { status: 'ready', database: ctx.db.dialect };
  });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // CORS (D80): before the API plugins, so a preflight is answered before their auth hooks.
  registerCors(app, ctx.config);
  await app.register(managementRoutes(ctx), { prefix: '/api/v1/manage' });
  await app.register(deliveryRoutes(ctx, replay), { prefix: '/api/v1/public' });
  // The pages a browser renders (the Studio, /docs, media files) in a context of their own, so
  // that their security headers' hooks (src/http/security-headers.ts) run on their requests
  // only: registered at the root, helmet's two onRequest hooks ran on every delivery request.
  await app.register(async (pages) => {
    await registerSecurityHeaders(pages, ctx.config);
    // Served from the package's own assets (no CDN); Swagger UI's page has no inline script.
    await pages.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true, tryItOutEnabled: false } });
    await pages.register(mediaFileRoutes(ctx));
    await pages.register(studioRoutes({ root: options.studioDir }));
  });

  return app;
}
