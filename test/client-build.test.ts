/**
 * The TypeScript client's build guarantees: its committed wire types
 * (packages/client/src/generated/openapi.ts) are what the server's OpenAPI document generates
 * today (else run `npm run generate -w @quire/client`), and the client bundles for the browser
 * with no Node.js built-in (no `node:` import, nothing esbuild would have to polyfill).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, generatedClientTypes } from '../scripts/generate-client.js';

const CLIENT = path.resolve(import.meta.dirname, '../packages/client');

/** Bundles one entry point of the client for the browser, in memory, with its inputs listed. */
const browserBundle = (entry: string) =>
  build({ entryPoints: [path.join(CLIENT, entry)], bundle: true, platform: 'browser', format: 'esm', write: false, metafile: true, logLevel: 'silent' });

describe('TypeScript client build', () => {
  it('has generated wire types matching the server (run npm run generate -w @quire/client when this fails)', async () => {
    const committed = await fs.readFile(GENERATED_FILE, 'utf8');
    expect(committed === (await generatedClientTypes()), 'packages/client/src/generated/openapi.ts is stale').toBe(true);
  });

  it('bundles for the browser without Node.js built-ins', async () => {
    const result = await browserBundle('src/index.ts');
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.every((i) => i.startsWith('packages/client/src/'))).toBe(true);
    const code = result.outputFiles[0].text;
    expect(code).not.toMatch(/\bfrom\s*["']node:|require\(["'](node:)?(fs|path|stream|buffer|http|https|crypto)["']\)|import\(["']node:/);
    expect(code.length).toBeLessThan(60_000);
  });

  it('bundles the rich-text entry point for the browser on its own (the main bundle stays without it)', async () => {
    const result = await browserBundle('src/rich-text.ts');
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((i) => i.includes('@contentful/rich-text-html-renderer'))).toBe(true);
    expect(inputs.filter((i) => i.startsWith('packages/client/src/'))).toEqual(['packages/client/src/rich-text.ts']);
    const code = result.outputFiles[0].text;
    expect(code).not.toMatch(/\bfrom\s*["']node:|require\(["'](node:)?(fs|path|stream|buffer|http|https|crypto)["']\)|import\(["']node:/);
    expect(code.length).toBeLessThan(80_000);
    process.stdout.write(`[client build] rich-text entry point: ${code.length} bytes unminified\n`);
  });
});
