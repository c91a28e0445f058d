/**
 * Delivery routes of GraphQL (docs/graphql.md "Requests and answers", "Schema as SDL"; D100, D104):
 * `GET` and `POST /graphql` handed to the app's GraphQL server (src/http/graphql.ts) and the SDL
 * of the key's workspace at `GET /graphql/schema.graphql`. Authentication and rate limits are the
 * delivery plugin's hooks; their errors are shaped as GraphQL answers here.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../../context.js';
import { taggedContext } from '../../cache-tags.js';
import { AppError } from '../../../errors.js';
import { printWorkspaceSchema } from '../../../modules/graphql/schema.js';
import { toAppError } from '../../error-handler.js';
import { createGraphqlServer, graphqlErrorReply, type GraphqlServer } from '../../graphql.js';
import { graphqlCacheArgs } from '../../graphql-cache.js';
import type { Plugin } from 'graphql-yoga';

const tags = ['Delivery: GraphQL'];

const REQUEST_ERROR = /"code":"(GRAPHQL_PARSE_FAILED|GRAPHQL_VALIDATION_FAILED|BAD_REQUEST)"/;

/**
 * 400 for an answer without `data` whose errors say the query did not parse or validate, or the
 * request could not be run (no query, bad variables) (D100):
 * Yoga answers those 200 to a request accepting only `application/json`, as GraphQL over HTTP
 * allows; Quire answers 400 whatever the request accepts.
 */
function requestErrorStatus(status: number, body: string): number {
  if (status !== 200 || !REQUEST_ERROR.test(body)) return status;
  const parsed = JSON.parse(body) as { data?: unknown };
  return parsed.data === undefined ? 400 : status;
}

/**
 * The error of an answer Yoga refused without a body: 415 UNSUPPORTED_MEDIA_TYPE for a POST
 * whose body is not JSON (no Content-Type, or another one), else 400 VALIDATION_FAILED.
 */
function emptyRefusal(status: number): AppError {
  if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'A GraphQL POST takes a JSON body: send Content-Type: application/json');
  return new AppError('VALIDATION_FAILED', 'This GraphQL request could not be read');
}

/** Registers the GraphQL routes on the delivery plugin; `plugins` go to the GraphQL server (limits, persisted queries). */
export async function deliveryGraphqlRoutes(app: FastifyInstance, ctx: Context, plugins: Plugin<Record<string, unknown>>[] = []): Promise<GraphqlServer> {
  const yoga = createGraphqlServer(ctx, { plugins });
  const errorHandler = (err: unknown, request: FastifyRequest, reply: FastifyReply) => graphqlErrorReply(request, reply, toAppError(err));

  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const response = await yoga.handleNodeRequestAndResponse(req, reply, { req, reply });
    response.headers.forEach((value, name) => {
      // The delivery cache may send the body compressed: Fastify sets the length of what it sends.
      if (name !== 'content-length') reply.header(name, value);
    });
    const body = await response.text();
    // Yoga refuses a POST whose body is not JSON with an empty 415: every error has a code.
    if (response.status >= 400 && body === '') return graphqlErrorReply(req, reply, emptyRefusal(response.status));
    reply.code(requestErrorStatus(response.status, body));
    return reply.send(body);
  };

  const schema = {
    graphql: true,
    tags,
    summary: 'GraphQL over HTTP: queries of the delivery API',
    description:
      'GraphQL over HTTP (D100): POST a JSON body `{query, variables?, operationName?, extensions?}`, or GET with the same as URL parameters (queries only). Answers `{data, errors?}`; every error has `extensions.code`.',
  };
  // GET answers go through the delivery cache keyed by the query's hash, variables, operationName
  // and Accept (src/http/graphql-cache.ts); POST answers are never cached.
  app.route({
    method: 'GET',
    url: '/graphql',
    schema: { ...schema, operationId: 'getGraphql' },
    config: { cacheArgs: graphqlCacheArgs, readsRelease: true },
    errorHandler,
    handler,
  });
  app.route({
    method: 'POST',
    url: '/graphql',
    schema: { ...schema, operationId: 'postGraphql' },
    config: { cache: false, readsRelease: true },
    errorHandler,
    handler,
  });

  app.get(
    '/graphql/schema.graphql',
    {
      schema: {
        operationId: 'getGraphqlSchema',
        tags,
        summary: "The GraphQL schema of the key's workspace as SDL",
        description: 'The schema GraphQL queries of this workspace run against, in the GraphQL schema language (D104), as text/plain.',
        querystring: Type.Object({}, { additionalProperties: false }),
      },
    },
    async (req, reply) => reply.type('text/plain; charset=utf-8').send(await printWorkspaceSchema(taggedContext(ctx, req), req.actor.workspaceId)),
  );
  return yoga;
}
