/**
 * What the benchmark scripts share: waiting for a started server, reading a process's peak RSS,
 * and a management/delivery API call. Not part of the test suite.
 */
import fs from 'node:fs';

/** Polls `${base}/readyz` every 100 ms until it answers 200; throws after `tries` attempts. */
export async function waitReady(base, tries = 600) {
  for (let i = 0; i < tries; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become ready');
}

/** The peak resident set size of process `pid` in MiB (VmHWM, Linux), or null when unknown. */
export function peakRssMiB(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** One API call with `key`; returns the parsed envelope, throws on a non-2xx answer. */
export async function api(base, key, method, url, body) {
  const res = await fetch(base + url, {
    method,
    headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}
