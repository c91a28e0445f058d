/**
 * One statement that holds SQLite's write lock long (an index build over a big table), run on a
 * worker thread with a connection of its own, so the main thread keeps serving: reads go on (WAL),
 * and the main connection's writes wait for it at the write gate, asynchronously (the caller holds
 * the gate: Db.runLongWrite in src/db/create-db.ts).
 */
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
let db;
try {
  db = new Database(workerData.file, { fileMustExist: true });
  db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
  db.exec(workerData.sql);
  parentPort.postMessage({ ok: true });
} catch (err) {
  parentPort.postMessage({ ok: false, message: err.message, code: err.code });
} finally {
  if (db) db.close();
}
`;

export interface LongWriteOptions {
  file: string;
  /** Resolved path of the better-sqlite3 module the main thread uses. */
  module: string;
  sql: string;
  /** Longest wait for the write lock (held by a transaction of the main thread, or another process). */
  busyTimeoutMs: number;
}

/** Runs `sql` on a new worker thread; rejects with the statement's error (its code kept). */
export function runOnWorkerThread(options: LongWriteOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: options });
    let settled = false;
    worker.once('message', (msg: { ok: boolean; message?: string; code?: string }) => {
      settled = true;
      if (msg.ok) resolve();
      else reject(Object.assign(new Error(msg.message ?? 'the statement failed'), msg.code ? { code: msg.code } : {}));
    });
    worker.once('error', (err) => {
      settled = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the worker thread stopped (exit code ${code})`));
    });
  });
}
