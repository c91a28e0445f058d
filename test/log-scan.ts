/**
 * Scans log files for secrets: API keys (`svc_live_…`, `svc_mgmt_…`), preview tokens (JWTs),
 * Studio session ids (`qs_…`, also as a `quire_session=` cookie), setup and invitation tokens
 * (`qt_…`), password hashes (`scrypt$…`), webhook signing secrets (`whsec_…`) and unredacted values of secret query parameters. Used by the global teardown over the logs of the
 * whole test run, and by test/log-scan.test.ts on known lines.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SECRET_QUERY_PARAMS } from '../src/lib/logger.js';

const SECRET_VALUE = [
  /svc_(live|mgmt)_[A-Za-z0-9]{16,}/,
  /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/,
  // Exactly the 43 characters of a session id or token, not inside a longer base64url run or after
  // a dot: a signed cursor's signature may hold "qs_" by chance.
  /(?<![A-Za-z0-9_.-])q[st]_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/,
  /quire_session=[^;\s"]+/,
  /scrypt\$\d+\$\d+\$\d+\$/,
  /whsec_[A-Za-z0-9+/]{20,}/,
  new RegExp(`[?&](${[...SECRET_QUERY_PARAMS].join('|')})=(?!\\[redacted\\])[^&"\\s]+`, 'i'),
];

/** The lines of `text` that hold a secret. */
export function linesWithSecrets(text: string): string[] {
  return text.split('\n').filter((line) => SECRET_VALUE.some((re) => re.test(line)));
}

/** Every log line in `dir` (all files) holding a secret, with the number of lines read. */
export function scanLogsForSecrets(dir: string): { lines: number; leaks: string[] } {
  let lines = 0;
  const leaks: string[] = [];
  for (const file of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    lines += text.split('\n').length - 1;
    leaks.push(...linesWithSecrets(text));
  }
  return { lines, leaks };
}
