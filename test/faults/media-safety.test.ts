/**
 * Media safety (issue 8): stored SVGs make no request outside themselves, SVG and PDF originals
 * are sandboxed and downloaded unless MEDIA_ACTIVE_DISPOSITION says inline, and a client that
 * aborts an upload is logged at info (it is not a server error) with nothing stored.
 */
import fsp from 'node:fs/promises';
import net from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createLogger } from '../../src/lib/logger.js';
import { createTestEnv, dialects, seedWorkspace, type TestEnv } from '../helpers.js';
import { multipart, pdf, storedKeys, upload } from '../media-fixtures.js';

const HOSTILE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">
<style>@import url(http://evil.example/a.css); .a { fill: url(https://evil.example/x.svg#g) }</style>
<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>
<image href="http://evil.example/pixel.png" width="1" height="1"/>
<image xlink:href="//evil.example/p.png"/>
<feImage href="https://evil.example/f.png"/>
<rect fill="url(http://evil.example/x#g)" stroke="url(#g)" style="filter:url(https://evil.example/f#a)" width="5" height="5"/>
<a href="https://evil.example/"><text>x</text></a>
</svg>`;

describe.each(dialects())('media safety on %s', (dialect) => {
  let env: TestEnv;
  let key: string;
  let workspaceId: string;
  const urls: Record<string, string> = {};

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    const s = await seedWorkspace(env.ctx);
    key = s.keys.management;
    workspaceId = s.workspace.id;
    for (const [name, filename, data] of [
      ['svg', 'logo.svg', Buffer.from(HOSTILE_SVG)],
      ['pdf', 'doc.pdf', pdf()],
    ] as const) {
      const res = await upload(env.app, { key, workspaceId, parts: [{ name: 'file', filename, data }] });
      expect(res.status).toBe(201);
      urls[name] = new URL(res.body.data.url).pathname;
    }
  });
  afterAll(async () => {
    await env.close();
    await fsp.rm(env.config.dataDir, { recursive: true, force: true });
  });

  it('removes every external reference from an SVG and keeps its own (#id) references and viewBox', async () => {
    const text = (await env.app.inject({ method: 'GET', url: urls.svg })).body;
    expect(text).not.toMatch(/evil\.example|@import|https?:\/\/(?!www\.w3\.org)/);
    expect(text).toContain('stroke="url(#g)"');
    expect(text).toContain('viewBox="0 0 10 10"');
    expect(text).toContain('<linearGradient id="g">');
  });

  it('serves SVG and PDF originals sandboxed and as attachments by default', async () => {
    for (const name of ['svg', 'pdf']) {
      const res = await env.app.inject({ method: 'GET', url: urls[name] });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-security-policy']).toMatch(/(^|;) ?sandbox($|;)/);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename=/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('serves them inline, still sandboxed, when MEDIA_ACTIVE_DISPOSITION=inline', async () => {
    const inline = await buildApp({ ...env.ctx, config: { ...env.ctx.config, mediaActiveDisposition: 'inline' } }, { logger: false });
    try {
      for (const name of ['svg', 'pdf']) {
        const res = await inline.inject({ method: 'GET', url: urls[name] });
        expect(res.headers['content-disposition']).toMatch(/^inline; filename=/);
        expect(res.headers['content-security-policy']).toMatch(/sandbox/);
      }
    } finally {
      await inline.close();
    }
  });

  it('logs an upload aborted by the client at info, not as an error, and stores nothing', async () => {
    const lines: { level: number; msg: string }[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    });
    const app = await buildApp({ ...env.ctx, log: createLogger('debug', sink) }, { logger: true });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const before = await storedKeys(env.config, null);
    try {
      const { payload, contentType } = multipart([{ name: 'file', filename: 'big.pdf', data: Buffer.concat([pdf(), Buffer.alloc(2_000_000, 0x20)]) }]);
      const port = (app.server.address() as net.AddressInfo).port;
      await new Promise<void>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.write(
            `POST /api/v1/manage/media/upload HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nX-Workspace-ID: ${workspaceId}\r\n` +
              `Content-Type: ${contentType}\r\nContent-Length: ${payload.length}\r\n\r\n`,
          );
          // Half the body, then the client goes away.
          socket.write(payload.subarray(0, payload.length / 2), () => setTimeout(() => socket.destroy(), 100));
        });
        socket.on('close', () => resolve());
        socket.on('error', () => {});
      });
      for (let i = 0; i < 50 && !lines.some((l) => /aborted/i.test(l.msg)); i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await app.close();
    }
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(lines.some((l) => l.level === 30 && /aborted/i.test(l.msg))).toBe(true);
    expect(await storedKeys(env.config, null)).toEqual(before);
  });
});
