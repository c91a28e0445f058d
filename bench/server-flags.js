/**
 * The Node.js flags `npm start` gives the server (package.json scripts.start), so benchmarks
 * measure the server as users run it; BENCH_SERVER_FLAGS overrides them for experiments.
 */
import fs from 'node:fs';
import path from 'node:path';

export function serverFlags(root) {
  if (process.env.BENCH_SERVER_FLAGS !== undefined) return process.env.BENCH_SERVER_FLAGS.split(' ').filter(Boolean);
  const start = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start;
  return start.split(/\s+/).filter((t) => t.startsWith('--'));
}
