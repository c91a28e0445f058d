/**
 * Client aborts are not server errors (issue 23, finding 5): a client that goes away in the middle
 * of a request (a JSON body cut short, a file download closed half-way, an upload cancelled while
 * it waits for its turn to be received) is logged at info, without a stack, and never at warn or
 * error level.
 */
import fsp from 'node:fs/promises';
import net from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createLogger } from '../../src/lib/logger.js';
import { createTestEnv, dialects, seedWorkspace, type TestEnv } from '../helpers.js';
import { multipart, pdf, storedKeys, upload } from '../media-fixtures.js';
import { UPLOADS_AT_ONCE } from '../../src/modules/media/spool.js';

interface Line {
  level: number;
  msg: string;
  err?: { stack?: string };
  [key: string]: unknown;
}

/** What the server logs for a request or a response the client abandoned. */
const ABORTED = /aborted by the client|closed prematurely/i;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens a socket, writes `request`, and destroys the socket after `afterMs` (or on the first byte received, when `onData`). */
function abortAfter(port: number, request: string | Buffer, opts: { afterMs?: number; onData?: boolean }): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(request);
      if (opts.afterMs !== undefined) setTimeout(() => socket.destroy(), opts.afterMs);
    });
    if (opts.onData) socket.once('data', () => socket.destroy());
    socket.on('error', () => {});
    socket.on('close', () => resolve());
  });
}

describe.each(dialects())('client aborts on %s', (dialect) => {
  let env: TestEnv;
  let app: FastifyInstance;
  let port: number;
  let key: string;
  let workspaceId: string;
  let fileUrl: string;
  const lines: Line[] = [];

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    const s = await seedWorkspace(env.ctx);
    key = s.keys.management;
    workspaceId = s.workspace.id;
    const res = await upload(env.app, { key, workspaceId: s.workspace.id, parts: [{ name: 'file', filename: 'big.pdf', data: pdf(8_000_000) }] });
    expect(res.status).toBe(201);
    fileUrl = new URL(res.body.data.url).pathname;
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    });
    app = await buildApp({ ...env.ctx, log: createLogger('debug', sink) }, { logger: true });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
    await env.close();
    await fsp.rm(env.config.dataDir, { recursive: true, force: true });
  });

  /** Runs `abort`, then waits for the server to log the abort; returns the new lines. */
  async function linesOf(abort: () => Promise<void>): Promise<Line[]> {
    const from = lines.length;
    await abort();
    for (let i = 0; i < 40 && !lines.slice(from).some((l) => ABORTED.test(l.msg)); i++) await pause(50);
    await pause(200);
    return lines.slice(from);
  }

  function expectInfoOnly(got: Line[]) {
    const loud = got.filter((l) => l.level >= 40);
    expect(loud.map((l) => `${l.level} ${l.msg} ${JSON.stringify(l.err ?? '')}`)).toEqual([]);
    const aborted = got.filter((l) => ABORTED.test(l.msg));
    expect(aborted.length).toBeGreaterThanOrEqual(1);
    for (const l of aborted) {
      expect(l.level).toBe(30);
      expect(JSON.stringify(l)).not.toMatch(/\bat .*\.(js|ts):\d+/);
    }
  }

  it('logs a JSON body cut short by the client at info, without a stack', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(5000) });
    const head = `POST /api/v1/manage/content-types HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    expectInfoOnly(await linesOf(() => abortAfter(port, head + body.slice(0, 100), { afterMs: 100 })));
  });

  it('logs a file download closed half-way by the client at info, without a stack', async () => {
    expectInfoOnly(await linesOf(() => abortAfter(port, `GET ${fileUrl} HTTP/1.1\r\nHost: x\r\n\r\n`, { onData: true })));
  });

  it('logs an upload cancelled while it waits for its turn at info, without a stack, and stores nothing', async () => {
    const { payload, contentType } = multipart([{ name: 'file', filename: 'slow.pdf', data: pdf(200_000) }]);
    const head =
      `POST /api/v1/manage/media/upload HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nX-Workspace-ID: ${workspaceId}\r\n` +
      `Content-Type: ${contentType}\r\nContent-Length: ${payload.length}\r\n\r\n`;
    // Uploads that trickle hold every place of the upload gate.
    const holders = Array.from({ length: UPLOADS_AT_ONCE }, () => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(head + payload.subarray(0, 1000).toString('latin1')));
      socket.on('error', () => {});
      return socket;
    });
    try {
      await pause(300);
      const before = await storedKeys(env.config, null);
      expectInfoOnly(await linesOf(() => abortAfter(port, head + payload.subarray(0, 1000).toString('latin1'), { afterMs: 200 })));
      expect(await storedKeys(env.config, null)).toEqual(before);
    } finally {
      for (const s of holders) s.destroy();
    }
  });
});
