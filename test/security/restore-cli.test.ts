/**
 * `quire import quire` as a real process given a malformed, truncated or hostile archive or
 * export (issue 23, finding 1): each ends with exactly one error line on stderr and exit code 1,
 * never a stack trace, on SQLite and PostgreSQL. A tar entry declaring a huge size is refused by
 * that size before anything is written (it used to end in ERR_STREAM_DESTROYED and a stack).
 * The CLI runs from the TypeScript sources (`node --import tsx test/import-child.mjs`), so the
 * suite needs no build.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packDirectory } from '../../src/modules/export/tar.js';
import { externalEnv } from '../cli-helpers.js';
import { dialects } from '../helpers.js';
import { makeExport, readManifest, tarHeader } from './restore-fixtures.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-restore-cli-'));
const exportDir = path.join(tmp, 'export');
const goodTar = path.join(tmp, 'good.tar');

/** `quire import quire <source> --workspace <slug>` as a process; resolves whatever the exit code. */
async function restoreProcess(source: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'test', 'import-child.mjs'), 'import', 'quire', source, '--workspace', 'hostile'],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', ...env },
        timeout: 60_000,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const cases: [string, () => string, RegExp][] = [
  [
    'a tar entry declaring 8 GiB',
    () => write('huge.tar', Buffer.concat([tarHeader('manifest.json', '77777777777\0'), Buffer.alloc(64 * 1024, 0x41)])),
    /the tar file's entry 'manifest\.json' declares 8192 MiB, more than the limit of 32 MiB/,
  ],
  [
    'a media entry over MEDIA_MAX_BYTES',
    () => write('media.tar', Buffer.concat([tarHeader('media/0190a0b4-7c2e-7aaa-8bbb-000000000001', '00100000000\0'), Buffer.alloc(1024)])),
    /declares 16 MiB, more than the limit of 10 MiB/,
  ],
  [
    'an export tar cut in half',
    () => write('half.tar', fs.readFileSync(goodTar).subarray(0, Math.floor(fs.statSync(goodTar).size / 2))),
    /the tar file is truncated/,
  ],
  [
    'an export tar without its end-of-archive marker',
    () => write('noend.tar', fs.readFileSync(goodTar).subarray(0, fs.statSync(goodTar).size - 1024)),
    /truncated/,
  ],
  ['garbage', () => write('garbage.tar', Buffer.from('PK\u0003\u0004 this is a zip, or nothing at all '.repeat(40))), /not a tar archive or is damaged/],
  ['an empty file', () => write('empty.tar', Buffer.alloc(0)), /the tar file is truncated/],
  [
    'an entry named ../../quire.db',
    () => write('dots.tar', Buffer.concat([tarHeader('../../quire.db', '00000000004\0'), Buffer.from('abcd'), Buffer.alloc(508 + 1024)])),
    /holds '\.\.\/\.\.\/quire\.db', which is not part of a Quire export/,
  ],
  [
    'a symbolic link entry',
    () => write('link.tar', Buffer.concat([tarHeader('manifest.json', '00000000000\0', '2'), Buffer.alloc(1024)])),
    /holds 'manifest\.json', which is not part of a Quire export/,
  ],
  [
    'a size field in base-256',
    () => {
      const h = tarHeader('manifest.json', '00000000000\0');
      h[124] = 0x80;
      let sum = 0;
      h.write('        ', 148, 'ascii');
      for (const b of h) sum += b;
      h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
      return write('b256.tar', Buffer.concat([h, Buffer.alloc(1024)]));
    },
    /has a size this reader does not take/,
  ],
  [
    'a directory export whose manifest is cut short',
    () => {
      const dir = path.join(tmp, 'cut-manifest');
      copyOfExport(dir);
      const text = fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8');
      fs.writeFileSync(path.join(dir, 'manifest.json'), text.slice(0, text.length / 2));
      return dir;
    },
    /manifest\.json is not valid JSON/,
  ],
  [
    'a directory export whose media file is a FIFO',
    () => {
      const dir = path.join(tmp, 'fifo');
      copyOfExport(dir);
      const name = Object.keys(readManifest(dir).files).find((f) => f.startsWith('media/'))!;
      fs.rmSync(path.join(dir, ...name.split('/')));
      // mkfifo(1): node has no API of its own for FIFOs.
      execFileSync('mkfifo', [path.join(dir, ...name.split('/'))]);
      return dir;
    },
    /'media\/\S+' is not a regular file/,
  ],
];

/**
 * A fresh copy of the export at `dir`: each dialect's run makes its cases again, and copying over
 * the last run's copy fails on Node 24 when it holds a FIFO.
 */
function copyOfExport(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(exportDir, dir, { recursive: true });
}

function write(name: string, bytes: Buffer): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, bytes);
  return file;
}

beforeAll(async () => {
  await makeExport(exportDir);
  const manifest = readManifest(exportDir);
  await packDirectory(exportDir, ['manifest.json', ...Object.keys(manifest.files)], goodTar);
}, 60_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.each(dialects())('quire import quire of a broken or hostile export, as a process on %s', (dialect) => {
  let external: Awaited<ReturnType<typeof externalEnv>>;
  beforeAll(async () => {
    external = await externalEnv(dialect);
  }, 60_000);
  afterAll(async () => external?.cleanup());

  it.each(cases)(
    '%s: one error line, exit code 1, no stack',
    async (_name, make, message) => {
      const source = make();
      const result = await restoreProcess(source, external.env);
      expect(result.stderr).toMatch(/^quire: Cannot restore the export: export: [^\n]+\n$/);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at |ERR_STREAM_DESTROYED/);
      expect(result.stdout).toBe('');
      expect(result.code).toBe(1);
      // Nothing of the archive is left in the temporary folder.
      const tmpDir = path.join(external.env.DATA_DIR, 'tmp');
      expect(fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir).filter((f) => f.startsWith('restore-')) : []).toEqual([]);
    },
    90_000,
  );

  it('the intact tar restores (the cases above are refused for what they break)', async () => {
    const result = await restoreProcess(goodTar, external.env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 90_000);
});
