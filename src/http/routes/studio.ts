/**
 * Serves the Studio (D90; docs/studio.md), the Vite build in dist/studio, at /studio/:
 * - `/studio/assets/*`: hashed files, `Cache-Control: public, max-age=31536000, immutable`, sent
 *   brotli- or gzip-compressed from the build's precompressed siblings when accepted; an
 *   unknown asset answers 404 in the envelope (never index.html, which a browser would cache as
 *   a script for a year);
 * - any other GET `/studio/*`: index.html with `Cache-Control: no-cache`, so client-side routes
 *   (`/studio/demo/model`) load the app and a new build is picked up on the next visit;
 * - `/studio` redirects to `/studio/`.
 * Without a build (dist/studio/index.html missing) every Studio URL answers 503
 * SERVICE_UNAVAILABLE telling to run `npm run build`. The directory is checked per request, so a
 * build made while the server runs is served without a restart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { AppError } from '../../errors.js';

export interface StudioRoutesOptions {
  /** The Studio build directory; default: dist/studio of the repository. */
  root?: string;
}

/** dist/studio beside package.json, found upwards from this file (it runs from src/ and from dist/src/). */
export function defaultStudioDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return path.join(dir, 'dist', 'studio');
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve('dist', 'studio');
    dir = parent;
  }
}

const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

export function studioRoutes(options: StudioRoutesOptions = {}) {
  const root = path.resolve(options.root ?? defaultStudioDir());
  const indexFile = path.join(root, 'index.html');

  const assertBuilt = () => {
    if (!fs.existsSync(indexFile)) {
      throw new AppError('SERVICE_UNAVAILABLE', `The Studio is not built (${indexFile} is missing): run \`npm run build\`, then reload`);
    }
  };
  const sendIndex = (reply: FastifyReply) => {
    assertBuilt();
    reply.header('Cache-Control', 'no-cache');
    return reply.sendFile('index.html', root, { cacheControl: false });
  };
  // The router ignores trailing slashes, so `/studio` and `/studio/` reach the same handler:
  // the raw URL tells them apart (relative asset URLs need the slash).
  const home = async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0];
    if (!pathname.endsWith('/')) {
      const query = request.url.slice(pathname.length);
      return reply.redirect(`${pathname}/${query}`, 301);
    }
    return sendIndex(reply);
  };

  return async function plugin(app: FastifyInstance): Promise<void> {
    // serve: false: only reply.sendFile; the routes below decide what each URL answers.
    // preCompressed: the build's .br/.gz siblings go to browsers accepting them (studio/vite.config.ts).
    await app.register(fastifyStatic, { root, serve: false, preCompressed: true });
    app.get('/studio', { schema: { hide: true } }, home);
    app.get('/studio/assets/*', { schema: { hide: true } }, async (request, reply) => {
      assertBuilt();
      const file = (request.params as { '*': string })['*'];
      const full = path.resolve(root, 'assets', file);
      if (!full.startsWith(path.join(root, 'assets') + path.sep) || !fs.existsSync(full) || !fs.statSync(full).isFile()) {
        throw new AppError('NOT_FOUND', `Studio asset '${file}' not found`);
      }
      return reply.sendFile(path.join('assets', file), root, { maxAge: ONE_YEAR_MS, immutable: true });
    });
    app.get('/studio/*', { schema: { hide: true } }, async (request, reply) => {
      const rest = (request.params as { '*': string })['*'];
      if (rest === '') return home(request, reply);
      // `/studio/assets/` (the router drops the slash) is no client route either.
      if (rest.replace(/\/+$/, '') === 'assets') throw new AppError('NOT_FOUND', 'Studio asset not found');
      return sendIndex(reply);
    });
  };
}
