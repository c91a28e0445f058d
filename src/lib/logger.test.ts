import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createLogger, lazyChildLogger, redactUrl } from './logger.js';

/** A logger at `level` whose lines are collected as parsed JSON. */
function collecting(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: createLogger(level, stream), lines };
}

const flush = () => new Promise((r) => setImmediate(r));

describe('lazyChildLogger', () => {
  it('makes no child while nothing is logged at an enabled level', async () => {
    const { log, lines } = collecting('warn');
    const spy = vi.spyOn(log, 'child');
    const lazy = lazyChildLogger(log, { reqId: 'req_1' }, {});
    lazy.info({ x: 1 }, 'not shown');
    lazy.debug('not shown');
    expect(lazy.level).toBe('warn');
    expect(lazy.isLevelEnabled('info')).toBe(false);
    await flush();
    expect(spy).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it('logs an enabled call through a child with the request bindings, secrets redacted', async () => {
    const { log, lines } = collecting('warn');
    const lazy = lazyChildLogger(log, { reqId: 'req_2' }, {});
    lazy.warn({ headers: { 'x-api-key': 'svc_live_secret' } }, 'careful');
    lazy.error(new Error('boom'));
    await flush();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ reqId: 'req_2', msg: 'careful', headers: { 'x-api-key': '[redacted]' } });
    expect(lines[1]).toMatchObject({ reqId: 'req_2', err: { message: 'boom' } });
    expect(lazy.bindings()).toEqual({ reqId: 'req_2' });
  });

  it('children and levels behave as a pino child', async () => {
    const { log, lines } = collecting('warn');
    const lazy = lazyChildLogger(log, { reqId: 'req_3' }, {});
    lazy.level = 'info';
    expect(lazy.level).toBe('info');
    lazy.info('now shown');
    lazy.child({ step: 'x' }).warn('nested');
    await flush();
    expect(lines.map((l) => [l.reqId, l.msg, l.step])).toEqual([
      ['req_3', 'now shown', undefined],
      ['req_3', 'nested', 'x'],
    ]);
    expect(log.level).toBe('warn');
  });

  it('a route level makes the child at once', () => {
    const { log } = collecting('warn');
    const spy = vi.spyOn(log, 'child');
    const made = lazyChildLogger(log, { reqId: 'req_4' }, { level: 'debug' });
    expect(spy).toHaveBeenCalledOnce();
    expect(made.level).toBe('debug');
  });
});

describe('redactUrl', () => {
  it('redacts secret query parameters only', () => {
    expect(redactUrl('/api/v1/public/entries?type=post&token=abc&Key=x')).toBe('/api/v1/public/entries?type=post&token=[redacted]&Key=[redacted]');
    expect(redactUrl('/x')).toBe('/x');
  });
});
