/**
 * Quire servers as child processes for suites that need real instances (webhooks across
 * processes, several instances on one database): `node dist/src/server.js`, what `npm start`
 * runs, rebuilt first when older than src/ (test/build.ts), so the sources under test run, not a
 * stale build. The environment is only what the caller passes (plus PATH), never the test
 * process's own, so DATABASE_URL or REDIS_URL cannot leak in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { ensureBuilt, ROOT } from './build.js';

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const outputs = new WeakMap<ChildProcess, { text: string }>();

/** The last 64 KB a server started by startServer wrote (stdout and stderr), for failure messages. */
export function serverOutput(child: ChildProcess): string {
  return outputs.get(child)?.text ?? '';
}

/**
 * Starts `dist/src/server.js` on 127.0.0.1:`port` with `env` (QUIRE_DEMO=0) and waits until /readyz
 * answers 200, `timeoutMs` at most; throws with the server's output if it exits or never gets ready.
 */
export async function startServer(env: Record<string, string>, port: number, timeoutMs = 30_000): Promise<ChildProcess> {
  ensureBuilt({ studio: false });
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'src', 'server.js')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port), HOST: '127.0.0.1', QUIRE_DEMO: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { text: '' };
  outputs.set(child, output);
  const keep = (c: Buffer) => {
    output.text = (output.text + c.toString()).slice(-65_536);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${output.text}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return child;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start in ${timeoutMs} ms: ${output.text}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Sends `signal` to the child unless it has exited, and resolves once it has. */
export function killed(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

export interface HttpAnswer {
  status: number;
  /** Parsed JSON, or the text when the body is not JSON. */
  body: any;
  headers: Headers;
}

/** One HTTP request to 127.0.0.1:`port` (`body` sent as JSON); the answer with its body parsed. */
export async function httpCall(
  port: number,
  method: string,
  url: string,
  opts: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`http://127.0.0.1:${port}${url}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, body, headers: res.headers };
}
