/**
 * The OpenAPI 3.1 document at `/api/v1/openapi.json` (and the reference UI at `/docs`), generated
 * by @fastify/swagger from the routes' TypeBox schemas and completed here, so that a client
 * generated from it is right about every answer:
 *
 * - Every operation lists each error status it can answer, each with the error envelope
 *   (`#/components/schemas/Error`) narrowed to the codes possible there. Most of them follow from
 *   the route's configuration (authentication, scope, session-only, body, Idempotency-Key);
 *   a route names the rest in its schema as `errors` (codes of src/errors.ts).
 * - Request headers (X-Workspace-ID, X-CSRF-Token, Idempotency-Key, If-Match, If-None-Match,
 *   Range) and response headers (X-Request-Id, ETag, Retry-After, x-ratelimit-*, Cache-Control,
 *   Idempotent-Replayed, Set-Cookie) are stated per operation.
 * - Three security schemes: delivery key and management key (both the X-API-Key header, kept
 *   apart so a client knows which key an operation takes) and the Studio session cookie.
 * - Schemas carrying a `title` (Entry, Page, Block, MediaAsset, ContentType, Field, …) become
 *   `#/components/schemas/<title>`; success envelopes around them become `<title>Response`,
 *   `<title>ListResponse` (with PageMeta) and `<title>ArrayResponse` components.
 * - `GET /media/files/*` is described as `/media/files/{path}`: `{path}` is the storage key,
 *   slashes included (OpenAPI has no wildcard parameter).
 *
 * `errors` and `etag` in a route schema are for this document only: Fastify ignores them and
 * compiles no serializer for error statuses (every error leaves through sendError).
 */
import type { FastifyDynamicSwaggerOptions, SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import type { Config } from '../config.js';
import { CODES_WITH_DETAILS, ERROR_CODES, type ErrorCode } from '../errors.js';
import { isSessionOnly, scopeOf, type Action } from '../modules/access/authorize.js';
import { SESSION_COOKIE } from '../modules/auth/sessions.js';
import { FILES_PATH } from '../modules/media/locations.js';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * OpenAPI only: error codes this operation can answer beyond those its configuration implies
     * (see implicitCodes). PRECONDITION_FAILED also documents the If-Match header.
     */
    errors?: readonly ErrorCode[];
    /** OpenAPI only: success answers carry an ETag header (D5). */
    etag?: boolean;
  }
}

type Json = Record<string, unknown>;
type Api = 'management' | 'delivery' | 'files' | 'other';

/** What the document needs to know about a route; kept on the operation as `x-quire` until the end. */
interface RouteFacts {
  api: Api;
  method: string;
  public: boolean;
  scope: string | null;
  sessionOnly: boolean;
  secretAnswer: boolean;
  hasBody: boolean;
  hasQuery: boolean;
  /** The query takes `filter[<field>]` / `filter[<field>][<op>]` keys (D43). */
  hasFilters: boolean;
  hasParams: boolean;
  codes: ErrorCode[];
  etag: boolean;
  /** A GraphQL route: its errors are GraphQL answers (`{errors: [{message, extensions: {code}}]}`), not the envelope. */
  graphql: boolean;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MANAGEMENT_PREFIX = '/api/v1/manage';
const DELIVERY_PREFIX = '/api/v1/public';
const ERROR_REF = '#/components/schemas/Error';

/** What each code means, for response descriptions (docs/api.md "Errors" says it at length). */
const CODE_MEANINGS: Record<ErrorCode, string> = {
  VALIDATION_FAILED: 'the request is invalid; `errors` lists `{path, message}` items',
  PAGE_TOO_DEEP: 'offset `page` above 1000: use the cursor',
  UNAUTHORIZED: 'no valid credentials (missing, unknown, revoked or expired key, key of the other class, ended session)',
  FORBIDDEN:
    'credentials valid but not allowed here (scope, role, whitelist, other workspace, CSRF token, session-only endpoint, an invitation link of an existing account or of another email)',
  NOT_FOUND: 'the resource does not exist or is not visible to this caller',
  METHOD_NOT_ALLOWED: 'the path exists with other methods (`Allow`)',
  CONTENT_TYPE_NOT_EMPTY: 'the content type still holds entries (or the block type is used by blocks)',
  SLUG_TAKEN: 'the slug is already used in its scope',
  UNIQUE_VIOLATION: 'the value of a unique field is already used',
  INVALID_STATE_TRANSITION: 'the state machine does not allow this action from the current status',
  IDEMPOTENCY_KEY_IN_USE: 'a request with the same Idempotency-Key is still being processed',
  ALREADY_MEMBER: 'the person is already a member of the workspace',
  LAST_OWNER: 'the workspace would be left without an owner',
  ROLE_IN_USE: 'a member or pending invitation holds the role',
  RELEASE_TOO_LARGE: 'the release already holds 1,000 items',
  RELEASE_CONFLICT: 'items of the release were published again since; `errors` lists them (send `force` to revert anyway)',
  WORKFLOW_STAGE: "the item is not in its review workflow's publish stage; `errors` lists each item",
  APPROVALS_MISSING: 'the stage the item leaves requires more approvals of its working copy; `errors` says required and given',
  RELEASE_INVALID: 'the release cannot be published as it is; `errors` lists each item and field',
  REQUEST_TIMEOUT: 'the request did not arrive in time',
  PRECONDITION_FAILED: '`If-Match` does not match the current ETag: reload and retry',
  PAYLOAD_TOO_LARGE: 'the body is larger than allowed (JSON 1 MB; uploads MEDIA_MAX_BYTES)',
  UNSUPPORTED_MEDIA_TYPE: 'the body is not of an accepted type',
  IDEMPOTENCY_KEY_REUSED: 'the Idempotency-Key was used with another method, path or body',
  RATE_LIMITED: 'too many requests: wait `Retry-After` seconds',
  INTERNAL_ERROR: 'a fault on the server (never with a stack trace or SQL)',
  SERVICE_UNAVAILABLE: 'the database is unreachable or busy, the handler timed out, or the server is shutting down; nothing was committed',
  INSUFFICIENT_STORAGE: 'no storage space left; nothing was written',
};

/** Example messages for each code (taken from docs/api.md), shown as response examples. */
const CODE_EXAMPLES: Record<ErrorCode, string> = {
  VALIDATION_FAILED: 'Validation failed',
  PAGE_TOO_DEEP: 'page above 1000: use the cursor in meta.next_cursor',
  UNAUTHORIZED: 'A management key (svc_mgmt_) is required',
  FORBIDDEN: "This API key lacks the scope 'content:write'",
  NOT_FOUND: "entry 'one-entry-many-languages' not found",
  METHOD_NOT_ALLOWED: 'Method PUT is not allowed here; use GET',
  CONTENT_TYPE_NOT_EMPTY: "content type 'product' holds 2 entries; delete them first",
  SLUG_TAKEN: "slug 'home' is already used",
  UNIQUE_VIOLATION: "value of unique field 'sku' is already used",
  INVALID_STATE_TRANSITION: "entry cannot be published from status 'published'",
  IDEMPOTENCY_KEY_IN_USE: 'A request with this Idempotency-Key is still being processed; retry shortly',
  ALREADY_MEMBER: 'This person is already a member of the workspace',
  LAST_OWNER: 'The workspace needs at least one owner',
  ROLE_IN_USE: 'The role is in use: give its members and invitations another role first',
  RELEASE_TOO_LARGE: 'A release holds at most 1000 items',
  RELEASE_CONFLICT: '2 items were published again since this release; send {"force": true} to revert anyway',
  WORKFLOW_STAGE: "entry 'hello' is in stage 'Draft' of workflow 'Editorial'; it can be published from stage 'Ready' only",
  APPROVALS_MISSING: "stage 'Review' requires 2 approvals of the working copy by people other than its last editor; it has 1",
  RELEASE_INVALID: 'The release cannot be published: 3 problems',
  REQUEST_TIMEOUT: 'The request was not received in time',
  PRECONDITION_FAILED: 'If-Match does not match the current version (ETag "01a1fd32-3bbe-76dd-9adf-83dbe35a5661-2"); reload and retry',
  PAYLOAD_TOO_LARGE: 'Request body is larger than 1 MB',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported Content-Type: send application/json',
  IDEMPOTENCY_KEY_REUSED: 'This Idempotency-Key was already used with a different method, path or body; use a new key for a new request',
  RATE_LIMITED: 'Rate limit of 1200 requests per minute for this API key reached; retry in 12 s',
  INTERNAL_ERROR: 'Internal server error',
  SERVICE_UNAVAILABLE: 'The database is unavailable; retry shortly',
  INSUFFICIENT_STORAGE: 'The server has no storage space left; nothing was written',
};

/** Tags in the order the reference shows them, with what each groups. */
export const TAGS: { name: string; description: string }[] = [
  { name: 'Delivery: entries', description: 'Published entries (drafts too for preview keys), resolved for a locale.' },
  { name: 'Delivery: pages', description: 'Published pages with their block trees, resolved for a locale.' },
  { name: 'Delivery: media', description: "Metadata of the key's workspace's media." },
  { name: 'Delivery: schema', description: 'The content model a delivery key may read.' },
  { name: 'Delivery: preview', description: 'An entry of any status named by a signed preview token.' },
  { name: 'Delivery: sync', description: 'Everything a key may see, then what changed since (sync tokens).' },
  { name: 'Delivery: live', description: 'Server-Sent Events naming the cache tags of each change the key may see (D142).' },
  { name: 'Delivery: GraphQL', description: 'The delivery API over GraphQL (docs/graphql.md): queries by GET or POST, and the schema as SDL.' },
  { name: 'Files', description: 'Media files behind the `url` of media assets, with image transforms. No key.' },
  { name: 'Management: content types', description: 'Content types and block types.' },
  { name: 'Management: fields', description: 'Fields of a content type and the impact of changing them.' },
  { name: 'Management: entries', description: 'Entries: working copies, states, bulk actions, history.' },
  { name: 'Management: pages', description: 'Pages and their block trees: working copies, states, history.' },
  { name: 'Management: media', description: 'Uploads and media assets.' },
  { name: 'Management: preview tokens', description: 'Signed 48-hour tokens for previewing one entry.' },
  { name: 'Management: webhooks', description: 'Webhooks signed with Standard Webhooks, their deliveries and retries.' },
  { name: 'Management: releases', description: 'Releases: changes to entries and pages that go live together (docs/releases.md).' },
  {
    name: 'Management: comments',
    description: 'Comments on entries and pages: anchored to fields and locales, threads, mentions (docs/workflow.md "Comments").',
  },
  {
    name: 'Management: notifications',
    description: 'Your notifications: assigned, mentioned, approvals, changes requested, stage changes, failed releases (docs/workflow.md "Notifications").',
  },
  { name: 'Management: workflows', description: 'Review workflows: stages, approvals, assignees and the publish guard (docs/workflow.md).' },
  { name: 'Studio: session', description: 'Studio sign-in with email and password (session cookie).' },
  { name: 'Studio: people', description: 'Members and invitations (Studio session only).' },
  { name: 'Studio: API keys', description: 'API keys of the workspace (Studio session only).' },
  { name: 'Studio: workspace', description: 'Workspace settings and the Studio home overview.' },
  { name: 'Studio: audit log', description: 'Who did what: the audit log, read-only (owners and admins, Studio session only; D122).' },
  {
    name: 'Studio: events',
    description: 'What changes around an open Studio, and who else has an item open: an event stream and presence (Studio session only; D133).',
  },
  {
    name: 'Studio: roles',
    description: 'Custom roles and their permissions; the five presets listed read-only (owners and admins, Studio session only; D120).',
  },
];

/** Error codes an operation can answer because of how it is configured and reached. */
export function implicitCodes(f: Omit<RouteFacts, 'codes'>): ErrorCode[] {
  const codes: ErrorCode[] = ['INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];
  const authenticated = (f.api === 'management' || f.api === 'delivery') && !f.public;
  // Path parameters, queries and bodies are validated (a write's body is parsed even without a
  // schema: malformed JSON); a session request names its workspace (X-Workspace-ID, a uuid).
  if (f.hasParams || f.hasBody || f.hasQuery || WRITE_METHODS.has(f.method) || authenticated) codes.push('VALIDATION_FAILED');
  if (authenticated) codes.push('UNAUTHORIZED');
  // Both API plugins carry the per-key (or per-address) rate limit when it is configured.
  if (f.api === 'management' || f.api === 'delivery') codes.push('RATE_LIMITED');
  // Any management actor may be refused: a session's workspace or CSRF token, a role, a scope.
  if (authenticated && f.api === 'management') codes.push('FORBIDDEN');
  if (f.hasParams) codes.push('NOT_FOUND');
  if (WRITE_METHODS.has(f.method)) {
    codes.push('PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'INSUFFICIENT_STORAGE');
    if (idempotent(f)) codes.push('IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED');
  }
  return codes;
}

function idempotent(f: Pick<RouteFacts, 'api' | 'method' | 'public' | 'secretAnswer'>): boolean {
  return f.api === 'management' && WRITE_METHODS.has(f.method) && !f.public && !f.secretAnswer;
}

function apiOf(url: string): Api {
  if (url.startsWith(`${MANAGEMENT_PREFIX}/`)) return 'management';
  if (url.startsWith(`${DELIVERY_PREFIX}/`)) return 'delivery';
  if (url.startsWith(`${FILES_PATH}/`)) return 'files';
  return 'other';
}

/** The per-route transform: records the route's facts on the operation, maps the file wildcard. */
function transformRoute({ schema, url, route }: { schema: Json; url: string; route: RouteOptions }): { schema: Json; url: string } {
  if (!schema || schema.hide) return { schema, url };
  const { errors, etag, graphql, ...rest } = schema as Json & { errors?: ErrorCode[]; etag?: boolean; graphql?: boolean };
  const config = (route.config ?? {}) as { public?: boolean; action?: Action; secretAnswer?: boolean };
  const method = String(Array.isArray(route.method) ? route.method[0] : route.method).toUpperCase();
  const api = apiOf(url);
  const base = {
    api,
    method,
    public: config.public === true || api === 'files',
    scope: (config.action && scopeOf(config.action)) ?? null,
    sessionOnly: config.action !== undefined && isSessionOnly(config.action),
    secretAnswer: config.secretAnswer === true,
    hasBody: rest.body !== undefined,
    hasQuery: rest.querystring !== undefined,
    hasFilters: Boolean((rest.querystring as Json | undefined)?.patternProperties),
    hasParams: rest.params !== undefined || /[:*]/.test(url),
    etag: etag === true,
    graphql: graphql === true,
  };
  const codes = [...new Set([...implicitCodes(base), ...(errors ?? [])])];
  let outUrl = url;
  if (api === 'files') {
    outUrl = `${FILES_PATH}/:path`;
    rest.params = {
      type: 'object',
      required: ['path'],
      properties: {
        path: {
          type: 'string',
          description:
            'The storage key of the file, as it appears after /media/files/ in a media `url`: `<workspace id>/[<folder>/]<media id>.<ext>`. Its slashes are sent as they are (the route matches everything after /media/files/).',
        },
      },
    };
  }
  return { schema: { ...rest, 'x-quire': { ...base, codes } satisfies RouteFacts }, url: outUrl };
}

// ---------------------------------------------------------------------------------------------
// Document completion (transformObject)

const header = (description: string, schema: Json = { type: 'string' }) => ({ description, schema });

/** Response headers shared by many operations (components.headers). */
const HEADERS: Json = {
  XRequestId: header('The request id (`req_…`); an error envelope carries it as `traceId`.', { type: 'string', pattern: '^req_' }),
  RateLimitLimit: header('Requests allowed per minute for this key (when a rate limit is configured).', { type: 'integer' }),
  RateLimitRemaining: header('Requests left in the current minute (when a rate limit is configured).', { type: 'integer' }),
  RateLimitReset: header('Seconds until the current window ends (when a rate limit is configured).', { type: 'integer' }),
  RetryAfter: header('Seconds to wait before retrying.', { type: 'integer' }),
  ETag: header('Entity tag of the answer: send it back in `If-Match` (management writes) or `If-None-Match` (reads).'),
};
const REQUEST_ID_HEADER = { $ref: '#/components/headers/XRequestId' };
const ETAG = { $ref: '#/components/headers/ETag' };
const RATE_HEADER_REFS = {
  'x-ratelimit-limit': { $ref: '#/components/headers/RateLimitLimit' },
  'x-ratelimit-remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'x-ratelimit-reset': { $ref: '#/components/headers/RateLimitReset' },
};

function param(name: string, inside: 'header' | 'query', description: string, required = false, schema: Json = { type: 'string' }): Json {
  return { name, in: inside, required, description, schema };
}

/** Adds `p` unless a parameter of that name is already there (header names ignore case). */
function addParam(op: Json, p: Json): void {
  const list = ((op.parameters as Json[] | undefined) ?? []) as Json[];
  const name = String(p.name).toLowerCase();
  const existing = list.find((q) => q.in === p.in && String(q.name).toLowerCase() === name);
  if (existing) Object.assign(existing, { ...p, schema: existing.schema ?? p.schema, required: Boolean(p.required) || Boolean(existing.required) });
  else list.push(p);
  op.parameters = list;
}

const pascal = (code: string) => code.toLowerCase().replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());

/** One example error envelope per code (components.examples), messages as docs/api.md shows them. */
function errorExamples(codes: Set<ErrorCode>): Json {
  const out: Json = {};
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
    if (!codes.has(code)) continue;
    out[code] = {
      summary: code,
      value: {
        success: false,
        message: CODE_EXAMPLES[code],
        code,
        data: null,
        errors:
          code === 'VALIDATION_FAILED'
            ? [{ path: 'body.data.price', message: 'must be a number' }]
            : CODES_WITH_DETAILS.has(code)
              ? [{ path: 'entry.2b1f….data.title', message: "entry 'launch' (post): is required" }]
              : null,
        meta: null,
        traceId: 'req_eb8CzjxTVpF99Ggh',
      },
    };
  }
  return out;
}

/**
 * The error response of one status, the envelope narrowed to the codes possible there. A status
 * with one code is a shared component (#/components/responses/NotFound); several codes are
 * described in place.
 */
function errorResponse(status: number, codes: ErrorCode[], responses: Record<string, Json>): Json {
  const headers: Json = { 'X-Request-Id': { $ref: '#/components/headers/XRequestId' } };
  if (status === 429 || status === 503) headers['Retry-After'] = { $ref: '#/components/headers/RetryAfter' };
  if (status === 429) Object.assign(headers, RATE_HEADER_REFS);
  const response = {
    description: codes.map((c) => `\`${c}\`: ${CODE_MEANINGS[c]}`).join('; '),
    headers,
    content: {
      'application/json': {
        schema: { allOf: [{ $ref: ERROR_REF }, { type: 'object', properties: { code: { enum: codes } } }] },
        examples: Object.fromEntries(codes.map((c) => [c, { $ref: `#/components/examples/${c}` }])),
      },
    },
  };
  if (codes.length > 1) return response;
  const name = pascal(codes[0]);
  responses[name] = response;
  return { $ref: `#/components/responses/${name}` };
}

/** A GraphQL answer carrying errors (docs/graphql.md "Errors"): every error with `extensions.code`. */
const GRAPHQL_ERRORS = {
  type: 'object',
  required: ['errors'],
  properties: {
    data: { type: 'null' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['message', 'extensions'],
        properties: { message: { type: 'string' }, extensions: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } } },
      },
    },
  },
};

/** The error response of one status of a GraphQL route: a GraphQL answer, in either media type. */
function graphqlErrorResponse(status: number, codes: ErrorCode[]): Json {
  const headers: Json = { 'X-Request-Id': { $ref: '#/components/headers/XRequestId' } };
  if (status === 429 || status === 503) headers['Retry-After'] = { $ref: '#/components/headers/RetryAfter' };
  if (status === 429) Object.assign(headers, RATE_HEADER_REFS);
  return {
    description: codes.map((c) => `\`${c}\`: ${CODE_MEANINGS[c]}`).join('; ') + ' (as a GraphQL answer: `extensions.code`)',
    headers,
    content: { 'application/json': { schema: GRAPHQL_ERRORS }, 'application/graphql-response+json': { schema: GRAPHQL_ERRORS } },
  };
}

/** Security requirement of an operation (D10, D90, D91). */
function securityOf(f: RouteFacts): Json[] {
  if (f.public) return [];
  if (f.api === 'delivery') return [{ deliveryKey: [] }];
  if (f.sessionOnly) return [{ studioSession: [] }];
  return [{ managementKey: [] }, { studioSession: [] }];
}

function authLine(f: RouteFacts): string {
  if (f.api === 'files') return 'No key: media URLs are public.';
  if (f.public) return 'No key.';
  if (f.api === 'delivery') return 'Takes a delivery key (`svc_live_…`).';
  if (f.sessionOnly) return 'Studio session only (owners and admins): an API key is refused with 403.';
  return f.scope
    ? `Takes a management key with scope \`${f.scope}\`, or a Studio session whose role grants it.`
    : 'Takes any management key or a Studio session.';
}

/** Completes one operation from its recorded facts. */
function completeOperation(op: Json, f: RouteFacts, sharedResponses: Record<string, Json>): void {
  op.security = securityOf(f);
  const base = typeof op.description === 'string' && op.description ? op.description : String(op.summary ?? '');
  op.description = `${base}\n\n${authLine(f)}`;

  // Request headers.
  if (f.api === 'management' && !f.public) {
    addParam(
      op,
      param(
        'X-Workspace-ID',
        'header',
        'Workspace id. With a Studio session: the workspace acted in (needed when the person belongs to several). With a key: must be the key’s workspace when sent.',
        false,
        { type: 'string', format: 'uuid' },
      ),
    );
    if (WRITE_METHODS.has(f.method))
      addParam(op, param('X-CSRF-Token', 'header', 'The session’s CSRF token (`csrf_token` of GET /session); required on Studio-session writes.'));
  }
  if (idempotent(f)) {
    addParam(
      op,
      param('Idempotency-Key', 'header', 'A UUID making the write safe to retry: a repeat replays the first answer (24 h).', false, {
        type: 'string',
        format: 'uuid',
      }),
    );
  }
  if (f.codes.includes('PRECONDITION_FAILED')) {
    addParam(op, param('If-Match', 'header', 'An ETag of this item: the write happens only if it is still current (else 412).'));
  }
  // A stream (GET /live) has no entity tag.
  const stream = op.operationId === 'getLiveEvents';
  const conditionalGet = f.method === 'GET' && (f.api === 'delivery' || f.api === 'files') && !stream;
  if (conditionalGet) addParam(op, param('If-None-Match', 'header', 'An ETag from an earlier answer: 304 without a body when it still matches.'));
  if (f.hasFilters) {
    addParam(op, {
      name: 'filter',
      in: 'query',
      required: false,
      style: 'deepObject',
      explode: true,
      description:
        'Filters on filterable fields: `filter[<field>]=v` (equals) or `filter[<field>][<op>]=v` with op eq, ne, lt, lte, gt, gte, in (comma-separated), contains, exists (D43).',
      schema: { type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }] } },
    });
  }
  if (f.api === 'files')
    addParam(op, param('Range', 'header', 'One `bytes=` range of an original (video seeking); unsatisfiable or multiple ranges get the whole file.'));

  // Responses.
  const responses = (op.responses ?? {}) as Record<string, Json>;
  for (const [status, response] of Object.entries(responses)) {
    if (!/^2/.test(status)) continue;
    const headers = (response.headers ?? {}) as Json;
    headers['X-Request-Id'] = REQUEST_ID_HEADER;
    if (f.api === 'management' || f.api === 'delivery') Object.assign(headers, RATE_HEADER_REFS);
    if (f.etag || conditionalGet) headers.ETag = ETAG;
    if (idempotent(f)) headers['Idempotent-Replayed'] = header('`true` when this is the stored answer of an earlier request with the same Idempotency-Key.');
    if (conditionalGet) headers['Cache-Control'] = header('Caching policy of the answer.');
    if (f.api === 'delivery' && !stream) {
      headers['Cache-Tag'] = header('The cache tags of what the answer depends on, comma-separated (D142; purge them at the CDN).');
      headers['Surrogate-Key'] = header('The same tags, space-separated (Fastly).');
    }
    if (f.api === 'management' && op.operationId && /^(signIn|setPassword)$/.test(String(op.operationId))) {
      headers['Set-Cookie'] = header(`The \`${SESSION_COOKIE}\` session cookie (HttpOnly, SameSite=Lax).`);
    }
    response.headers = headers;
    if (response.description === 'Default Response') response.description = 'Success';
  }
  if (f.api === 'files') {
    const binary = { schema: { type: 'string', contentMediaType: 'application/octet-stream' } };
    const fileHeaders = {
      'X-Request-Id': REQUEST_ID_HEADER,
      ETag: ETAG,
      'Cache-Control': header('`public, max-age=31536000, immutable`: a file never changes under its URL.'),
      'Content-Disposition': header('`inline`, or `attachment` for SVG and PDF unless MEDIA_ACTIVE_DISPOSITION says inline.'),
    };
    const content = { 'image/*': binary, 'video/*': binary, 'application/pdf': binary };
    responses['200'] = { description: 'The file (or the transformed image), typed by its stored MIME type.', headers: fileHeaders, content };
    responses['206'] = {
      description: 'One range of an original file.',
      headers: { ...fileHeaders, 'Content-Range': header('`bytes <start>-<end>/<size>`') },
      content,
    };
  }
  if (conditionalGet)
    responses['304'] = {
      description: 'Not modified: the `If-None-Match` ETag still matches (no body).',
      headers: { ETag: ETAG, 'X-Request-Id': REQUEST_ID_HEADER },
    };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of f.codes) {
    const status = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const status of [...byStatus.keys()].sort((a, b) => a - b))
    responses[String(status)] = f.graphql ? graphqlErrorResponse(status, byStatus.get(status)!) : errorResponse(status, byStatus.get(status)!, sharedResponses);
  op.responses = responses;
}

const NOT_SCHEMA_KEYS = new Set(['enum', 'const', 'default', 'example', 'examples', 'required']);

/** Moves every titled schema under `node` to components, replacing it by a $ref. */
function hoist(node: unknown, components: Record<string, Json>): unknown {
  if (Array.isArray(node)) return node.map((n) => hoist(n, components));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (NOT_SCHEMA_KEYS.has(k)) out[k] = v;
    else if (k === 'properties' && v && typeof v === 'object') {
      out[k] = Object.fromEntries(Object.entries(v as Json).map(([name, s]) => [name, hoist(s, components)]));
    } else out[k] = hoist(v, components);
  }
  const title = out.title;
  if (typeof title === 'string' && /^[A-Za-z][A-Za-z0-9]*$/.test(title) && (out.type !== undefined || out.anyOf !== undefined)) {
    return { $ref: register(components, title, out) };
  }
  return out;
}

function register(components: Record<string, Json>, name: string, schema: Json): string {
  const known = components[name];
  if (known && JSON.stringify(known) !== JSON.stringify(schema)) {
    throw new Error(`OpenAPI: two different schemas are titled '${name}'; give one of them another title`);
  }
  components[name] = schema;
  return `#/components/schemas/${name}`;
}

const refName = (s: unknown): string | null => {
  const ref = (s as Json | undefined)?.$ref;
  return typeof ref === 'string' && ref.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : null;
};

/** Names a success envelope after its payload: EntryResponse, EntryListResponse, EmptyResponse. */
function envelopeName(schema: Json): string | null {
  const props = schema.properties as Json | undefined;
  if (!props || !props.success || !props.data || !props.meta || schema.title) return null;
  const data = props.data as Json;
  const meta = props.meta as Json;
  const metaRef = refName(meta) ?? (Array.isArray(meta.anyOf) ? (meta.anyOf as unknown[]).map(refName).find(Boolean) : null) ?? null;
  const metaNull = meta.type === 'null';
  if (data.type === 'null' && metaNull) return 'EmptyResponse';
  const single = refName(data);
  if (single) return metaNull ? `${single}Response` : metaRef ? `${single}${metaRef === 'PageMeta' ? 'Page' : metaRef}Response` : null;
  const item = data.type === 'array' ? refName(data.items) : null;
  if (item && metaRef === 'PageMeta') return `${item}ListResponse`;
  if (item && metaNull) return `${item}ArrayResponse`;
  return null;
}

/** transformObject: completes operations, hoists named schemas, adds tags and components. */
function completeDocument(doc: Json): Json {
  const components = (doc.components ?? {}) as Json;
  const schemas = (components.schemas ?? {}) as Record<string, Json>;
  const used = new Set<string>();
  const sharedResponses: Record<string, Json> = {};
  const usedCodes = new Set<ErrorCode>();
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Record<string, Json>>)) {
    for (const op of Object.values(item)) {
      const facts = op['x-quire'] as RouteFacts | undefined;
      delete op['x-quire'];
      if (!facts) continue;
      for (const code of facts.codes) usedCodes.add(code);
      for (const t of (op.tags as string[] | undefined) ?? []) used.add(t);
      if (Array.isArray(op.parameters)) op.parameters = hoist(op.parameters, schemas);
      if (op.requestBody) op.requestBody = hoist(op.requestBody, schemas);
      for (const response of Object.values((op.responses ?? {}) as Record<string, Json>)) {
        for (const media of Object.values((response.content ?? {}) as Record<string, Json>)) {
          const hoisted = hoist(media.schema, schemas) as Json;
          const name = envelopeName(hoisted);
          media.schema = name ? { $ref: register(schemas, name, hoisted) } : hoisted;
        }
      }
      completeOperation(op, facts, sharedResponses);
    }
  }
  for (const [name, schema] of Object.entries(schemas)) schemas[name] = hoistInside(schema, schemas);
  Object.assign(schemas, ERROR_SCHEMAS);
  components.schemas = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  components.securitySchemes = SECURITY_SCHEMES;
  components.responses = Object.fromEntries(Object.entries(sharedResponses).sort(([a], [b]) => a.localeCompare(b)));
  components.headers = HEADERS;
  components.examples = errorExamples(usedCodes);
  const known = new Set(TAGS.map((t) => t.name));
  const unknown = [...used].filter((t) => !known.has(t));
  if (unknown.length) throw new Error(`OpenAPI: tags without a description in src/http/openapi.ts TAGS: ${unknown.join(', ')}`);
  doc.tags = TAGS.filter((t) => used.has(t.name));
  delete doc.security;
  return doc;
}

/** Hoists titled schemas nested in a component, keeping the component itself. */
function hoistInside(schema: Json, schemas: Record<string, Json>): Json {
  const { title, ...rest } = schema;
  const inner = hoist(rest, schemas) as Json;
  return title === undefined ? inner : { title, ...inner };
}

const ERROR_SCHEMAS: Record<string, Json> = {
  ErrorDetail: {
    title: 'ErrorDetail',
    type: 'object',
    required: ['path', 'message'],
    properties: {
      path: { type: 'string', description: 'where: `body.…`, `query.…`, `params.…` or `headers.…`, then the JSON path with dots' },
      message: { type: 'string' },
    },
    additionalProperties: false,
  },
  Error: {
    title: 'Error',
    description: 'The error envelope: every error of both APIs and of the file route has this shape (docs/api.md "Errors").',
    type: 'object',
    required: ['success', 'message', 'code', 'data', 'errors', 'meta', 'traceId'],
    properties: {
      success: { const: false },
      message: { type: 'string', description: 'what went wrong, for people' },
      code: { type: 'string', enum: Object.keys(ERROR_CODES), description: 'machine-readable code' },
      data: { type: 'null' },
      errors: {
        description: 'the problems found, for VALIDATION_FAILED only; null for every other code',
        anyOf: [{ type: 'array', items: { $ref: '#/components/schemas/ErrorDetail' } }, { type: 'null' }],
      },
      meta: { type: 'null' },
      traceId: { type: 'string', pattern: '^req_', description: 'the X-Request-Id of this answer, also in the server log' },
    },
    additionalProperties: false,
    examples: [
      {
        success: false,
        message: 'Validation failed',
        code: 'VALIDATION_FAILED',
        data: null,
        errors: [{ path: 'body.data.price', message: 'must be a number' }],
        meta: null,
        traceId: 'req_eb8CzjxTVpF99Ggh',
      },
    ],
  },
};

const SECURITY_SCHEMES: Json = {
  deliveryKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'A delivery key (`svc_live_…`): production (published content) or preview (drafts too). A management key is refused with 401.',
  },
  managementKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'A management key (`svc_mgmt_…`) with scopes, acting for the person who created it. A delivery key is refused with 401.',
  },
  studioSession: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description:
      'The Studio session cookie set by POST /api/v1/manage/session. Writes also need header X-CSRF-Token; X-Workspace-ID names the workspace when the person belongs to several.',
  },
};

/** Options of @fastify/swagger for this app (registered in src/app.ts). */
export function swaggerOptions(config: Pick<Config, 'publicUrl'>): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quire API',
        version: '1.0.0',
        description:
          'Management and delivery APIs of Quire, a headless content service. Every response carries `X-Request-Id`; every error is the `Error` envelope. ' +
          '`data` of entries, blocks and translations is a JSON-encoded string (D1): parse it. The guide with examples is docs/api.md; the interactive reference is served at /docs.',
        license: { name: 'MIT', identifier: 'MIT' },
        contact: { name: 'API reference of this installation', url: `${config.publicUrl}/docs` },
      },
      servers: [{ url: config.publicUrl, description: 'This installation (PUBLIC_URL)' }],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    stripBasePath: false,
    refResolver: {
      // Shared schemas (app.addSchema) and TypeBox recursive types keep their $id as name.
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    transform: transformRoute as unknown as SwaggerTransform,
    transformObject: ((documentObject: { openapiObject?: unknown }) => completeDocument(documentObject.openapiObject as Json)) as SwaggerTransformObject,
  } as FastifyDynamicSwaggerOptions;
}
