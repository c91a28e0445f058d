/**
 * The management API plugin (`/api/v1/manage`): management-key authentication, then one file
 * per resource. Routes only parse and reply; the rules live in src/modules.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Context } from '../../../context.js';
import { registerAuth } from '../../auth-hooks.js';
import { registerRateLimit } from '../../rate-limit.js';
import { registerIdempotency } from '../../idempotency.js';
import { contentTypeRoutes } from './content-types.js';
import { fieldRoutes } from './fields.js';
import { mediaRoutes } from './media.js';
import { previewTokenRoutes } from './preview-tokens.js';
import { entryRoutes } from './entries.js';
import { pageRoutes } from './pages.js';

export function managementRoutes(ctx: Context): FastifyPluginAsync {
  return async (app) => {
    registerAuth(app, ctx, 'management');
    await registerRateLimit(app, ctx.config.rateLimitManagement);
    registerIdempotency(app, ctx);
    await contentTypeRoutes(app, ctx);
    await fieldRoutes(app, ctx);
    await mediaRoutes(app, ctx);
    await previewTokenRoutes(app, ctx);
    await entryRoutes(app, ctx);
    await pageRoutes(app, ctx);
  };
}
