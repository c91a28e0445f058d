/**
 * Errors the client throws. Every refusal of the API arrives as the error envelope
 * (`{success: false, message, code, errors, traceId}`); QuireError carries its parts so callers
 * can branch on `code`, show `details` next to the fields they name and quote `traceId` (the
 * request id the server logged, also sent as header `X-Request-Id`) when reporting a problem.
 */

/** One item of a VALIDATION_FAILED answer: the request part and key (`body.data.title`) and why. */
export interface QuireErrorDetail {
  path: string;
  message: string;
}

/**
 * Codes the server answers with (docs/api.md "Errors"), plus the client's own NETWORK_ERROR
 * (no answer arrived) and INVALID_RESPONSE (an answer that is not the envelope).
 */
export type QuireErrorCode =
  | 'VALIDATION_FAILED'
  | 'PAGE_TOO_DEEP'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONTENT_TYPE_NOT_EMPTY'
  | 'SLUG_TAKEN'
  | 'UNIQUE_VIOLATION'
  | 'INVALID_STATE_TRANSITION'
  | 'IDEMPOTENCY_KEY_IN_USE'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'PRECONDITION_FAILED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'INTERNAL_ERROR'
  | 'SERVICE_UNAVAILABLE'
  | 'INSUFFICIENT_STORAGE'
  | 'NETWORK_ERROR'
  | 'INVALID_RESPONSE'
  // GraphQL refusals (extensions.code of the first error).
  | 'GRAPHQL_PARSE_FAILED'
  | 'GRAPHQL_VALIDATION_FAILED'
  | 'QUERY_TOO_COMPLEX'
  | 'PERSISTED_QUERY_MISMATCH'
  | 'PERSISTED_QUERY_NOT_SUPPORTED'
  // Codes added by later server versions stay usable without a client update.
  | (string & {});

/** One GraphQL error as answered (docs/graphql.md "Errors"): Quire always sets `extensions.code`. */
export interface GraphqlError {
  message: string;
  locations?: { line: number; column: number }[];
  path?: (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

export interface QuireErrorInit {
  code: QuireErrorCode;
  status: number;
  message: string;
  traceId?: string | null;
  details?: QuireErrorDetail[] | null;
  retryAfterMs?: number | null;
  /** Every error of a refused GraphQL request. */
  graphqlErrors?: GraphqlError[] | null;
  cause?: unknown;
}

/** A refusal of the API, or a request that got no usable answer (status 0). */
export class QuireError extends Error {
  /** The envelope's machine-readable code (e.g. NOT_FOUND), or NETWORK_ERROR / INVALID_RESPONSE. */
  readonly code: QuireErrorCode;
  /** HTTP status; 0 when no answer arrived. */
  readonly status: number;
  /** The request id of the answer (`req_...`, the envelope's traceId); null without an answer. */
  readonly traceId: string | null;
  /** Per-field problems of a VALIDATION_FAILED answer; null for every other code. */
  readonly details: QuireErrorDetail[] | null;
  /** How long the server asked to wait before retrying (Retry-After), in milliseconds. */
  readonly retryAfterMs: number | null;
  /** The errors of a GraphQL request refused with an HTTP error status (`code` is the first one's `extensions.code`); null otherwise. */
  readonly graphqlErrors: GraphqlError[] | null;

  constructor(init: QuireErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'QuireError';
    this.code = init.code;
    this.status = init.status;
    this.traceId = init.traceId ?? null;
    this.details = init.details ?? null;
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.graphqlErrors = init.graphqlErrors ?? null;
  }
}

/** True for a QuireError, optionally of one code: `if (isQuireError(err, 'NOT_FOUND')) ...`. */
export function isQuireError(err: unknown, code?: QuireErrorCode): err is QuireError {
  return err instanceof QuireError && (code === undefined || err.code === code);
}
