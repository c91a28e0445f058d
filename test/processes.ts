/**
 * Child processes for the suites that run real programs (the example site, the packed client):
 * commands run to their end, a Node.js server started and awaited until it answers, a free port,
 * and the newest modification time under a path (to rebuild only what is stale).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** The newest mtime (ms) of a file or of any file under a directory; 0 when it does not exist. */
export function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** Runs a command to its end; resolves with its stdout, rejects with its whole output when it fails. */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let output = '';
    child.stdout!.on('data', (d) => {
      stdout += d;
      output += d;
    });
    child.stderr!.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${command} ${args.join(' ')} failed (${code}) in ${cwd}:\n${output}`))));
  });
}

/** A port nothing listens on at the moment. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface Child {
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/** Spawns `node <entry>` and waits until `ready` (a URL) answers below 500 (`timeoutMs`, 30 s unless told). */
export async function startNode(entry: string, cwd: string, env: NodeJS.ProcessEnv, ready: string, timeoutMs = 30_000): Promise<Child> {
  const child = spawn(process.execPath, [entry], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== undefined) throw new Error(`${entry} exited with ${exited}:\n${output}`);
    try {
      const res = await fetch(ready, { redirect: 'manual' });
      if (res.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${entry} did not answer ${ready} in ${timeoutMs / 1000} s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    output: () => output,
    stop: async () => {
      if (exited !== undefined) return;
      const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await done;
      clearTimeout(timer);
    },
  };
}

/**
 * Starts `node dist/src/server.js` of `root` with the demo workspace (QUIRE_DEMO=1, SQLite in a
 * fresh DATA_DIR) on a free port, and reads the demo's three keys from the banner it prints.
 * `env` is added to the server's environment.
 */
export async function startDemoQuire(
  root: string,
  dataDir: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ quire: Child; base: string; keys: { management: string; delivery: string; preview: string } }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const quireEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PUBLIC_URL: base,
    PORT: String(port),
    HOST: '127.0.0.1',
    QUIRE_DEMO: '1',
    LOG_LEVEL: 'warn',
    ...env,
  };
  delete quireEnv.DATABASE_URL;
  // A first start seeds the demo (its images processed by sharp): slow on a busy machine.
  const quire = await startNode(path.join(root, 'dist/src/server.js'), root, quireEnv, `${base}/readyz`, 90_000);
  const banner = quire.output();
  const key = (name: string) => {
    const found = new RegExp(`^\\s+${name}\\s+(svc_\\S+)$`, 'm').exec(banner)?.[1];
    if (!found) throw new Error(`no ${name} key in the demo banner:\n${banner}`);
    return found;
  };
  return { quire, base, keys: { management: key('management'), delivery: key('delivery'), preview: key('preview') } };
}
