/**
 * The GraphQL server of the delivery API (docs/graphql.md "Requests and answers", D100): GraphQL
 * Yoga over graphql-js (parse, validate, execute), one instance per app, whose schema is the
 * requesting key's workspace's (graphqlSchemaOf: a schema per workspace and content model).
 * Answers follow GraphQL over HTTP: `{data, errors?}` as `application/graphql-response+json`
 * when the request accepts it, else `application/json`; every error has `extensions.code`:
 * - a query that does not parse → 400 `GRAPHQL_PARSE_FAILED`; one that does not validate (a
 *   mutation or subscription sent by POST among them: the API is read-only) → 400
 *   `GRAPHQL_VALIDATION_FAILED`;
 * - a mutation or subscription sent by GET → 405 `METHOD_NOT_ALLOWED`;
 * - resolver errors as src/modules/graphql/errors.ts says (`BAD_USER_INPUT`, `FORBIDDEN`, and
 *   `INTERNAL_SERVER_ERROR` masked and logged);
 * - credentials (401 `UNAUTHORIZED`) and rate limits (429 `RATE_LIMITED`) come from the delivery
 *   API's hooks and are shaped as GraphQL errors by graphqlErrorReply.
 *
 * Other concerns plug in as envelop/Yoga plugins (createGraphqlServer's `plugins`): query limits
 * (src/modules/graphql/limits.ts), persisted queries (apq.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError, Kind, type DocumentNode } from 'graphql';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import type { Context } from '../context.js';
import { graphqlRequest, type GraphqlRequest } from '../modules/graphql/context.js';
import { toGraphqlError } from '../modules/graphql/errors.js';
import { graphqlSchemaOf } from '../modules/graphql/schema.js';
import { graphqlTrace, useSourceMapExtension } from '../modules/graphql/source-maps.js';
import type { AppError } from '../errors.js';
import { taggedContext } from './cache-tags.js';

/** The path both methods answer on. */
export const GRAPHQL_PATH = '/api/v1/public/graphql';

/** What Yoga's handler is given per request: the Fastify request (its `actor` is the delivery key) and reply. */
export interface GraphqlServerContext {
  req: FastifyRequest;
  reply: FastifyReply;
}

export type GraphqlServer = YogaServerInstance<GraphqlServerContext, { quire: GraphqlRequest }>;

function withCode(error: GraphQLError, code: string, status: number): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    // `http.spec` would let Yoga answer 200 to an application/json request; D100 asks the status for both.
    extensions: { ...error.extensions, code, http: { status } },
  });
}

function isReadOnly(document: DocumentNode): boolean {
  return document.definitions.every((d) => d.kind !== Kind.OPERATION_DEFINITION || d.operation === 'query');
}

/** Codes of parse and validation errors, and 405 for a mutation or subscription over GET (D100). */
function useQuireErrorCodes(): Plugin<Record<string, unknown>> {
  return {
    onParse: ({ context }) => {
      return ({ result, replaceParseResult }) => {
        if (result instanceof Error) {
          const error = result instanceof GraphQLError ? result : new GraphQLError(result.message);
          replaceParseResult(withCode(error, 'GRAPHQL_PARSE_FAILED', 400));
          return;
        }
        if (isReadOnly(result)) return;
        const request = (context as { request?: Request }).request;
        if (request?.method === 'GET') {
          throw new GraphQLError('Only queries can be sent by GET; this API is read-only', {
            extensions: { code: 'METHOD_NOT_ALLOWED', http: { status: 405, headers: { Allow: 'GET, POST' } } },
          });
        }
        throw new GraphQLError('This API is read-only: it answers queries, not mutations or subscriptions', {
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } },
        });
      };
    },
    onValidate: () => {
      return ({ valid, result, setResult }) => {
        if (!valid) setResult(result.map((e) => withCode(e, 'GRAPHQL_VALIDATION_FAILED', 400)));
      };
    },
  };
}

/**
 * A request's workspace schema and model, looked up once for Yoga's schema and context factories,
 * and the context its reads use (the request's own copy, carrying its cache tags: taggedContext).
 */
function perRequest(ctx: Context) {
  const memo = new WeakMap<FastifyRequest, { ctx: Context; found: ReturnType<typeof graphqlSchemaOf> }>();
  return (req: FastifyRequest) => {
    let request = memo.get(req);
    if (!request) {
      const tagged = taggedContext(ctx, req);
      request = { ctx: tagged, found: graphqlSchemaOf(tagged, req.actor) };
      memo.set(req, request);
    }
    return request;
  };
}

/**
 * The app's GraphQL server. `plugins` are envelop/Yoga plugins run after Quire's own (error
 * codes): limits, persisted queries, tracing. Yoga's own request parsing is used, so GET takes
 * `query`, `variables`, `operationName` and `extensions` in the URL and POST a JSON body.
 */
export function createGraphqlServer(ctx: Context, options: { plugins?: Plugin<Record<string, unknown>>[] } = {}): GraphqlServer {
  const lookup = perRequest(ctx);
  return createYoga<GraphqlServerContext, { quire: GraphqlRequest }>({
    graphqlEndpoint: GRAPHQL_PATH,
    schema: async ({ req }) => (await lookup(req).found).schema,
    context: async ({ req, params }) => {
      const request = lookup(req);
      const { model } = await request.found;
      return { quire: graphqlRequest(request.ctx, req.actor, model, graphqlTrace(ctx.config.publicUrl, req.actor, model, params.extensions)) };
    },
    graphiql: false,
    landingPage: false,
    // Yoga's own health and readiness routes are not ours to answer.
    healthCheckEndpoint: '/api/v1/public/graphql/health',
    logging: {
      debug: (...args) => ctx.log.debug({ args }, 'graphql'),
      info: (...args) => ctx.log.info({ args }, 'graphql'),
      warn: (...args) => ctx.log.warn({ args }, 'graphql'),
      error: (...args) => ctx.log.error({ args }, 'graphql'),
    },
    maskedErrors: { maskError: (error) => toGraphqlError(error, ctx.log) },
    plugins: [useQuireErrorCodes(), useSourceMapExtension(), ...(options.plugins ?? [])],
  });
}

/**
 * Sends an error raised before Yoga ran (credentials 401, rate limit 429, a body Fastify could not
 * read) as a GraphQL answer: `{errors: [{message, extensions: {code}}]}` with the status and
 * headers of the REST error (docs/graphql.md "Errors").
 */
export function graphqlErrorReply(request: FastifyRequest, reply: FastifyReply, err: AppError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  const accept = String(request.headers.accept ?? '');
  const type = accept.includes('application/graphql-response+json') ? 'application/graphql-response+json' : 'application/json';
  const extensions: Record<string, unknown> = { code: err.code };
  if (err.errors) extensions.errors = err.errors;
  return reply
    .code(err.status)
    .type(`${type}; charset=utf-8`)
    .send(JSON.stringify({ errors: [{ message: err.message, extensions }] }));
}
