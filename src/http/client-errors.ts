/**
 * Failures below Fastify's routing, where no request object exists: an HTTP parser error on the
 * socket (malformed request line, bad Content-Length, headers over Node's limit). DECISIONS.md
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
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const id = newRequestId();
  const body = JSON.stringify({
    success: false,
    message: 'Validation failed',
    code: 'VALIDATION_FAILED',
    data: null,
    errors: [{ path: tooLarge ? 'headers' : 'request', message: tooLarge ? 'request headers are larger than the server accepts' : 'malformed HTTP request' }],
    meta: null,
    traceId: id,
  });
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
  );
}
