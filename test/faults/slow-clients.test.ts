/**
 * Slow and stalled clients (issue 8): a client trickling its headers or its body, or idling on a
 * kept-alive connection, is cut off by the configured timeouts, and a request whose handler runs
 * past HTTP_HANDLER_TIMEOUT_MS answers 503 with Retry-After, while other requests are served.
 * Real sockets against one server with short timeouts.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createTestEnv, dialects, seedWorkspace, type TestEnv } from '../helpers.js';

// The handler timeout counts from routing, body receipt included: above the request timeout here so
// that a trickled body meets the request timeout first.
const TIMEOUTS = { httpHeadersTimeoutMs: 400, httpRequestTimeoutMs: 800, httpKeepAliveTimeoutMs: 400, httpHandlerTimeoutMs: 1200 };

/** Opens a socket; resolves with what the server sent and how long until it closed. */
function session(port: number, drive: (socket: net.Socket) => void): Promise<{ text: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1', () => drive(socket));
    let text = '';
    socket.on('data', (d) => (text += d.toString()));
    socket.on('error', () => {});
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - started }));
    setTimeout(() => reject(new Error(`socket still open after 10 s; received: ${text}`)), 10_000).unref();
  });
}

/** Writes `chunks` one every `everyMs`, stopping when the socket closes. */
function trickle(socket: net.Socket, chunks: string[], everyMs: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= chunks.length) return clearInterval(timer);
    socket.write(chunks[i++]);
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
}

describe.each(dialects())('slow clients on %s', (dialect) => {
  let env: TestEnv;
  let port: number;
  let key: string;

  beforeAll(async () => {
    env = await createTestEnv(dialect, {
      config: TIMEOUTS,
      beforeReady: (app) => {
        // A handler slower than the handler timeout, standing in for any slow route.
        app.get('/test/slow', async () => {
          await new Promise((r) => setTimeout(r, 2500));
          return { late: true };
        });
      },
    });
    key = (await seedWorkspace(env.ctx)).keys.management;
    await env.app.listen({ host: '127.0.0.1', port: 0 });
    port = (env.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => env.close());

  it('closes a connection whose headers trickle in past HTTP_HEADERS_TIMEOUT_MS', async () => {
    const header = 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(200);
    const r = await session(port, (s) => trickle(s, header.split(''), 50));
    expect(r.closedAfterMs).toBeLessThan(TIMEOUTS.httpHeadersTimeoutMs + 1500);
    expect(r.text).toMatch(/^HTTP\/1\.1 408 Request Timeout[^]*"code":"REQUEST_TIMEOUT"/);
  });

  it('answers 408 to a body trickling in past HTTP_REQUEST_TIMEOUT_MS and closes the connection', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(500) });
    const head = `POST /api/v1/manage/content-types HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const r = await session(port, (s) => {
      s.write(head);
      trickle(s, body.split(''), 50);
    });
    expect(r.text).toMatch(/^HTTP\/1\.1 408 Request Timeout[^]*"code":"REQUEST_TIMEOUT"/);
    expect(r.closedAfterMs).toBeLessThan(TIMEOUTS.httpRequestTimeoutMs + 1500);
  });

  it('closes an idle kept-alive connection after HTTP_KEEP_ALIVE_TIMEOUT_MS', async () => {
    const r = await session(port, (s) => s.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(r.text).toMatch(/^HTTP\/1\.1 200/);
    expect(r.closedAfterMs).toBeGreaterThanOrEqual(TIMEOUTS.httpKeepAliveTimeoutMs - 50);
    expect(r.closedAfterMs).toBeLessThan(TIMEOUTS.httpKeepAliveTimeoutMs + 1500);
  });

  it('closes the connection with the 503 when the handler timeout ends a request whose body still trickles in', async () => {
    // The handler timeout (counted from routing, body included) before the request timeout: the
    // 503 comes first, and the connection must not stay open until the request timeout.
    const app = await buildApp({ ...env.ctx, config: { ...env.ctx.config, httpHandlerTimeoutMs: 500, httpRequestTimeoutMs: 4000 } }, { logger: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const body = JSON.stringify({ name: 'x'.repeat(500) });
      const head = `POST /api/v1/manage/content-types HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      const r = await session((app.server.address() as net.AddressInfo).port, (s) => {
        s.write(head);
        trickle(s, body.split(''), 50);
      });
      expect(r.text).toMatch(/^HTTP\/1\.1 503 Service Unavailable[^]*"code":"SERVICE_UNAVAILABLE"/);
      expect(r.text.split('\r\n\r\n')[0]).toMatch(/\r\nconnection: close(\r\n|$)/i);
      expect(r.text).not.toMatch(/408 Request Timeout/);
      expect(r.closedAfterMs).toBeLessThan(500 + 1000);
    } finally {
      await app.close();
    }
  });

  it('answers 503 with Retry-After when a handler runs past HTTP_HANDLER_TIMEOUT_MS, serving others meanwhile', async () => {
    const started = Date.now();
    const slow = fetch(`http://127.0.0.1:${port}/test/slow`);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    const res = await slow;
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    const body = await res.json();
    expect(body).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE', data: null, errors: null, meta: null });
    expect(body.traceId).toBe(res.headers.get('x-request-id'));
    expect(Date.now() - started).toBeLessThan(2200);
  });
});
