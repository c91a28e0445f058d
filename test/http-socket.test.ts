/**
 * Failures that only exist on a real socket or during shutdown still answer in the envelope
 * (docs/api.md "Errors": no request, however malformed, gets a response outside it).
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createTestEnv, type TestEnv } from './helpers.js';

/** Sends raw bytes and resolves with the whole raw response. */
function raw(port: number, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    socket.on('data', (d) => (out += d.toString()));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
    socket.write(payload);
  });
}

function parse(response: string): { status: number; headers: string; body: any } {
  const [head, ...rest] = response.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head, body: JSON.parse(rest.join('\r\n\r\n')) };
}

describe('socket-level errors', () => {
  let env: TestEnv;
  let port: number;
  beforeAll(async () => {
    env = await createTestEnv('sqlite');
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    port = (env.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => env?.close());

  it('answers a malformed request line in the envelope', async () => {
    const res = parse(await raw(port, 'GARBAGE\r\n\r\n'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED', data: null, meta: null });
    expect(res.headers).toContain(`X-Request-Id: ${res.body.traceId}`);
  });

  it('answers a bad Content-Length in the envelope', async () => {
    const res = parse(await raw(port, 'POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
  });

  it('answers oversized headers with 431 in the envelope', async () => {
    const res = parse(await raw(port, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(res.status).toBe(431);
    expect(res.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED', errors: [{ path: 'headers' }] });
  });
});

describe('shutdown', () => {
  it('answers a request arriving while the server closes with 503 SERVICE_UNAVAILABLE in the envelope', async () => {
    const env = await createTestEnv('sqlite');
    const app = await buildApp(env.ctx, { logger: false });
    // A slow request keeps its connection busy while close() begins.
    app.get('/slow', async () => {
      await new Promise((r) => setTimeout(r, 300));
      return { ok: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as net.AddressInfo).port;
    const slow = raw(port, 'GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    // A second client has sent half of its request when shutdown begins, and the rest after.
    const late = net.connect(port, '127.0.0.1');
    let lateResponse = '';
    late.on('data', (d) => (lateResponse += d.toString()));
    const lateDone = new Promise<void>((r) => late.on('close', () => r()));
    late.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    await new Promise((r) => setTimeout(r, 100));
    const closing = app.close();
    await new Promise((r) => setTimeout(r, 50));
    late.write('Connection: close\r\n\r\n');
    await lateDone;
    expect((await slow).startsWith('HTTP/1.1 200')).toBe(true);
    await closing;
    await env.close();
    const parsed = parse(lateResponse);
    expect(parsed.status).toBe(503);
    expect(parsed.body).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE', data: null, meta: null });
  });
});
