/**
 * Starts test/faults/server-child.mjs: a Quire server in a process of its own, which a fault
 * suite may kill (SIGKILL), watch die, or start again on the same database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface ChildServer {
  process: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** The bootstrap keys (with FAULT_BOOTSTRAP=1), else null. */
  keys: { management: string; delivery: string; preview: string } | null;
  /** The exit code once the process has exited (null: killed by a signal), else undefined. */
  exitCode(): number | null | undefined;
}

/**
 * Spawns the server on `target` (a PostgreSQL schema, or `sqlite` for DATA_DIR's file) with
 * `env` added to this process's environment, and waits until it listens (20 s at most).
 */
export async function startChildServer(target: string, env: Record<string, string>): Promise<ChildServer> {
  const child = spawn(process.execPath, [path.join(here, 'server-child.mjs'), target], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
    setTimeout(() => reject(new Error(`server did not start in 20 s: ${stderr}`)), 20_000);
  });
  const started = JSON.parse(line) as { port: number; keys: ChildServer['keys'] };
  return { process: child, base: `http://127.0.0.1:${started.port}`, keys: started.keys, exitCode: () => exited };
}
