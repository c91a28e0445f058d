/**
 * Secrets never reach a log line (issue 8): a server logging at debug level through the process
 * logger is sent keys in headers, preview tokens in the URL (valid, tampered, in odd spellings),
 * failing requests and an error; no line holds a secret, and the request lines still say what
 * was asked. The scanner the global teardown runs over the whole suite's logs is checked here on
 * lines that do leak, so that it can fail.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createLogger, redactUrl } from '../src/lib/logger.js';
import { linesWithSecrets } from './log-scan.js';
import { call, createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';

describe.each(dialects())('secrets out of logs on %s', (dialect) => {
  let env: TestEnv;
  const lines: string[] = [];

  beforeAll(async () => {
    env = await createTestEnv(dialect);
  });
  afterAll(() => env.close());

  it('logs request lines without keys or preview tokens, at debug level, errors included', async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const log = createLogger('debug', sink);
    const ctx = { ...env.ctx, log };
    const app = await buildApp(ctx, { logger: true });
    await app.ready();
    try {
      const s = await seedWorkspace(env.ctx);
      const M = '/api/v1/manage';
      expect(
        (await call(app, 'POST', `${M}/content-types`, { key: s.keys.management, body: { name: 'Post', fields: [{ name: 'title', field_type: 'text' }] } }))
          .status,
      ).toBe(201);
      const entry = await call(app, 'POST', `${M}/content-types/post/entries`, { key: s.keys.management, body: { data: { title: 'Draft' } } });
      const token: string = (await call(app, 'POST', `${M}/preview-tokens`, { key: s.keys.management, body: { entry_id: entry.body.data.id } })).body.data
        .token;
      const urls = [
        `/api/v1/public/preview?token=${encodeURIComponent(token)}`,
        `/api/v1/public/preview?TOKEN=${token}`,
        `/api/v1/public/preview?to%6Ben=${token}&x=1`,
        `/api/v1/public/preview?token=${token.slice(0, -3)}abc`,
        `/api/v1/public/entries?type=post&key=${s.keys.delivery}`,
      ];
      for (const url of urls) await call(app, 'GET', url, { key: s.keys.delivery });
      await call(app, 'GET', `${M}/content-types`, { key: `${s.keys.management}x` });
      await call(app, 'GET', `${M}/content-types`, { headers: { authorization: `Bearer ${s.keys.management}` } });
      await call(app, 'POST', `${M}/content-types`, {
        key: s.keys.management,
        raw: `{"password": "${s.keys.management}"`,
        headers: { 'content-type': 'application/json' },
      });
      log.error(
        { err: new Error('boom'), token, headers: { 'x-api-key': s.keys.management }, nested: { secret: s.keys.delivery } },
        'a failure with secrets attached',
      );
    } finally {
      await app.close();
    }
    expect(lines.length).toBeGreaterThan(10);
    expect(linesWithSecrets(lines.join('\n'))).toEqual([]);
    const text = lines.join('\n');
    for (const secret of [/svc_(live|mgmt)_/, /eyJ/]) expect(text).not.toMatch(secret);
    expect(text).toContain('"url":"/api/v1/public/preview?token=[redacted]"');
    expect(text).toContain('to%6Ben=[redacted]&x=1');
    expect(text).toContain('"url":"/api/v1/public/entries?type=post&key=[redacted]"');
    expect(text).toMatch(/"statusCode":401/);
  });

  it('the scanner finds what leaks', () => {
    expect(linesWithSecrets('{"url":"/preview?token=abc.def"}\n{"k":"svc_mgmt_0123456789abcdefABCDEF"}\n{"ok":"token=[redacted]"}')).toHaveLength(2);
    expect(linesWithSecrets('{"t":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijkl"}')).toHaveLength(1);
    expect(redactUrl('/a?b=1&token=x&c')).toBe('/a?b=1&token=[redacted]&c');
  });
});
