/**
 * One error handler for the whole app: every failure, ours or Fastify's, leaves as the
 * error envelope with a registered code (docs/api.md "Errors"). 5xx bodies never carry a
 * stack, SQL or driver text; the log gets the detail, tied to the request id.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isUniqueFieldViolation, storageFault } from '../db/errors.js';
import { AppError, ERROR_CODES, type ErrorCode, type ErrorDetail } from '../errors.js';

interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'params', headers: 'headers' };

/** Turns Ajv issues into `{path, message}` items with dotted paths prefixed by the request part. */
export function ajvToDetails(issues: AjvIssue[], context: string | undefined): ErrorDetail[] {
  const part = PART_NAMES[context ?? 'body'] ?? 'body';
  const seen = new Set<string>();
  const out: ErrorDetail[] = [];
  for (const issue of issues) {
    let path = part + issue.instancePath.replace(/\//g, '.');
    let message = issue.message ?? 'is invalid';
    if (issue.keyword === 'additionalProperties') {
      path += `.${String(issue.params.additionalProperty)}`;
      message = 'is not a known key';
    } else if (issue.keyword === 'required') {
      path += `.${String(issue.params.missingProperty)}`;
      message = 'is required';
    }
    const key = `${path}|${message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ path, message });
    }
  }
  return out;
}

const STATUS_TO_CODE: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'VALIDATION_FAILED',
  411: 'VALIDATION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'VALIDATION_FAILED',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  431: 'VALIDATION_FAILED',
  503: 'SERVICE_UNAVAILABLE',
};

/** Maps any thrown value to an AppError a client may see. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  // Nothing was committed: the client may retry once the database is back or has room (issue 8).
  switch (storageFault(err)) {
    case 'unavailable':
      return new AppError('SERVICE_UNAVAILABLE', 'The database is unavailable; retry shortly', null, { 'retry-after': '1' });
    case 'busy':
      return new AppError('SERVICE_UNAVAILABLE', 'The database is busy; retry shortly', null, { 'retry-after': '1' });
    case 'full':
      return new AppError('INSUFFICIENT_STORAGE', 'The server has no storage space left; nothing was written');
  }
  // Only reached when a write bypassed the operation's own check (a version restore): the
  // unique index refused it and nothing was written.
  if (isUniqueFieldViolation(err)) return new AppError('UNIQUE_VIOLATION', 'a value of a unique field is already used by another entry of this content type');
  const fe = err as Partial<FastifyError> & { validation?: AjvIssue[]; validationContext?: string };
  if (fe && Array.isArray(fe.validation)) {
    return new AppError('VALIDATION_FAILED', 'Validation failed', ajvToDetails(fe.validation, fe.validationContext));
  }
  const status = typeof fe?.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    const code = STATUS_TO_CODE[status] ?? 'VALIDATION_FAILED';
    if (code === 'VALIDATION_FAILED') {
      const message = clientMessage(fe);
      return new AppError('VALIDATION_FAILED', 'Validation failed', [{ path: 'body', message }]);
    }
    if (code === 'PAYLOAD_TOO_LARGE') return new AppError(code, 'Request body is larger than 1 MB');
    if (code === 'UNSUPPORTED_MEDIA_TYPE') return new AppError(code, 'Unsupported Content-Type: send application/json');
    return new AppError(code, clientMessage(fe));
  }
  if (fe?.code === 'FST_ERR_HANDLER_TIMEOUT') {
    return new AppError('SERVICE_UNAVAILABLE', 'The request took too long to answer; retry shortly', null, { 'retry-after': '1' });
  }
  if (status === 503) return new AppError('SERVICE_UNAVAILABLE', 'Service unavailable');
  return new AppError('INTERNAL_ERROR', 'Internal server error');
}

/** A short message safe for clients: Fastify's own 4xx messages are; JSON parser text is reworded. */
function clientMessage(fe: Partial<FastifyError>): string {
  if (fe.name === 'SyntaxError' || /JSON/i.test(fe.message ?? '')) {
    return fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'body is empty but Content-Type is application/json' : 'body is not valid JSON';
  }
  return (fe.message ?? 'Bad request').slice(0, 300);
}

/** Sends `err` as the error envelope; used by the handler and by hooks that stop a request. */
export function sendError(request: FastifyRequest, reply: FastifyReply, err: AppError): FastifyReply {
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  return reply.code(err.status).type('application/json; charset=utf-8').serializer(JSON.stringify).send({
    success: false,
    message: err.message,
    code: err.code,
    data: null,
    errors: err.errors,
    meta: null,
    traceId: request.id,
  });
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    // The client went away mid-request (an upload cancelled, a tab closed): not a server fault,
    // and nobody is left to answer.
    if (clientAborted(request)) {
      request.log.info({ code: (error as { code?: unknown }).code }, 'request aborted by the client');
      return reply.code(499).send();
    }
    const appError = toAppError(error);
    if ((error as { code?: unknown }).code === 'FST_ERR_HANDLER_TIMEOUT' && !request.raw.complete) closeAfterAnswer(request, reply);
    if (appError.status >= 500) {
      request.log.error({ err: error }, 'request failed');
    } else if (!(error instanceof AppError)) {
      request.log.info({ code: appError.code, reason: (error as Error).message }, 'request rejected');
    }
    return sendError(request, reply, appError);
  });
}

/**
 * The handler timeout answered while the request body was still arriving (a client trickling
 * it): the connection closes with the answer instead of staying open, reading the rest, until
 * the request timeout (docs/security.md "Limits and their settings"). `Connection: close` tells the client; once
 * the answer is flushed our side sends FIN, and the socket is destroyed a second later at most
 * (what still arrives meanwhile is read and dropped, so closing sends no reset that could cost
 * the client the answer).
 */
function closeAfterAnswer(request: FastifyRequest, reply: FastifyReply): void {
  const socket = request.raw.socket;
  if (!socket) return;
  reply.header('Connection', 'close');
  reply.raw.once('finish', () => {
    socket.end();
    setTimeout(() => socket.destroy(), 1000).unref();
  });
}

/** True when the client closed the connection before the request was complete. */
function clientAborted(request: FastifyRequest): boolean {
  const raw = request.raw;
  return !raw.complete && (raw.destroyed || raw.socket?.destroyed === true);
}

export { ERROR_CODES };
