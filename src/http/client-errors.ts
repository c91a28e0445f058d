/**
 * Failures below Fastify's routing, where no request object exists: an HTTP parser error on the
 * socket (malformed request line, bad Content-Length, headers over Node's limit). docs/api.md
 * "Errors": no request, however malformed, gets a response outside the envelope, so these are
 * written to the socket as the error envelope too, with a fresh request id.
 */
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';

/**
 * Request ids must be unique, not secret: a random prefix per process (so instances differ)
 * and a counter, which costs nothing per request unlike drawing random bytes each time.
 */
const PROCESS_PREFIX = randomBytes(6).toString('base64url');
let counter = 0;
export function newRequestId(): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `req_${PROCESS_PREFIX}${counter.toString(36)}`;
}

/** Writes the envelope for a client error on a raw socket, then closes it. */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  const { status, reason, code, message, errors } = describeClientError(err.code);
  const id = newRequestId();
  const body = JSON.stringify({ success: false, message, code, data: null, errors, meta: null, traceId: id });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The answer to a socket-level error: headers over Node's limit (431), a request not received
 * within HTTP_HEADERS_TIMEOUT_MS / HTTP_REQUEST_TIMEOUT_MS (408 REQUEST_TIMEOUT), anything else
 * unparseable (400).
 */
function describeClientError(code: string | undefined): {
  status: number;
  reason: string;
  code: string;
  message: string;
  errors: { path: string; message: string }[] | null;
} {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      reason: 'Request Header Fields Too Large',
      code: 'VALIDATION_FAILED',
      message: 'Validation failed',
      errors: [{ path: 'headers', message: 'request headers are larger than the server accepts' }],
    };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, reason: 'Request Timeout', code: 'REQUEST_TIMEOUT', message: 'The request was not received in time', errors: null };
  }
  return {
    status: 400,
    reason: 'Bad Request',
    code: 'VALIDATION_FAILED',
    message: 'Validation failed',
    errors: [{ path: 'request', message: 'malformed HTTP request' }],
  };
}
