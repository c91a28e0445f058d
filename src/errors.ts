/**
 * The one registry of error codes (docs/api.md "Errors") and the AppError that carries them.
 * Every error a client can see is an AppError with a code from ERROR_CODES; the HTTP error
 * handler turns it into the docs/api.md "Errors" envelope. docs/api.md lists every code (a test checks it).
 */

export const ERROR_CODES = {
  VALIDATION_FAILED: 400,
  PAGE_TOO_DEEP: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONTENT_TYPE_NOT_EMPTY: 409,
  SLUG_TAKEN: 409,
  UNIQUE_VIOLATION: 409,
  INVALID_STATE_TRANSITION: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  ALREADY_MEMBER: 409,
  LAST_OWNER: 409,
  ROLE_IN_USE: 409,
  RELEASE_TOO_LARGE: 409,
  RELEASE_CONFLICT: 409,
  WORKFLOW_STAGE: 409,
  APPROVALS_MISSING: 409,
  REQUEST_TIMEOUT: 408,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  RELEASE_INVALID: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  INSUFFICIENT_STORAGE: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * Codes whose envelope lists details in `errors`: VALIDATION_FAILED, a release that cannot be
 * published (RELEASE_INVALID: each item and field) and a revert that would undo later
 * publications (RELEASE_CONFLICT: each item), a publication outside the workflow's publish stage
 * (WORKFLOW_STAGE: each item) and a stage move short of approvals (APPROVALS_MISSING: required
 * and given); `errors` is null for every other code.
 */
export const CODES_WITH_DETAILS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'VALIDATION_FAILED',
  'RELEASE_INVALID',
  'RELEASE_CONFLICT',
  'WORKFLOW_STAGE',
  'APPROVALS_MISSING',
]);

/** One item of `errors` on VALIDATION_FAILED: a dotted location and what is wrong there. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/**
 * An error with a registered code. `status` comes from the registry; `errors` is only kept for
 * CODES_WITH_DETAILS (docs/api.md "Errors": `errors` is null for every other code).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: ErrorDetail[] | null;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, errors: ErrorDetail[] | null = null, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code];
    this.errors = CODES_WITH_DETAILS.has(code) ? (errors ?? []) : null;
    this.headers = headers;
  }
}

/** 400 VALIDATION_FAILED with the standard message and the given details. */
export function validationError(errors: ErrorDetail[]): AppError {
  return new AppError('VALIDATION_FAILED', 'Validation failed', errors);
}

/** 400 VALIDATION_FAILED for one location. */
export function invalid(path: string, message: string): AppError {
  return validationError([{ path, message }]);
}

export function notFound(what: string): AppError {
  return new AppError('NOT_FOUND', `${what} not found`);
}

export function forbidden(message: string): AppError {
  return new AppError('FORBIDDEN', message);
}
