/**
 * Unknown routes answer 404 NOT_FOUND and known paths called with another method answer 405
 * METHOD_NOT_ALLOWED with an `Allow` header, both in the envelope. Routes are collected as they
 * are registered; a second router matches a path against them regardless of method.
 */
import type { FastifyInstance } from 'fastify';
import FindMyWay from 'find-my-way';
import { AppError } from '../errors.js';
import { sendError } from './error-handler.js';

export function registerNotFound(app: FastifyInstance): void {
  const methodsByUrl = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const set = methodsByUrl.get(route.url) ?? new Set<string>();
    for (const m of methods) set.add(m.toUpperCase());
    methodsByUrl.set(route.url, set);
  });

  let pathRouter: ReturnType<typeof FindMyWay> | null = null;
  const allowedFor = (url: string): Set<string> | null => {
    if (!pathRouter) {
      pathRouter = FindMyWay({ ignoreTrailingSlash: true });
      for (const [pattern, methods] of methodsByUrl) {
        pathRouter.on('GET', pattern, () => {}, { methods });
      }
    }
    const match = pathRouter.find('GET', url.split('?')[0]);
    return match ? (match.store as { methods: Set<string> }).methods : null;
  };

  app.setNotFoundHandler((request, reply) => {
    const allowed = allowedFor(request.url);
    if (allowed && !allowed.has(request.method)) {
      const list = [...allowed].sort().join(', ');
      return sendError(request, reply, new AppError('METHOD_NOT_ALLOWED', `Method ${request.method} is not allowed here; use ${list}`, null, { Allow: list }));
    }
    return sendError(request, reply, new AppError('NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`));
  });
}
