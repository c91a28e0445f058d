/**
 * The management API plugin (`/api/v1/manage`): management-key authentication, then one file
 * per resource. Routes only parse and reply; the rules live in src/modules.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Context } from '../../../context.js';
import { registerAuth } from '../../auth-hooks.js';
import { contentTypeRoutes } from './content-types.js';
import { fieldRoutes } from './fields.js';

export function managementRoutes(ctx: Context): FastifyPluginAsync {
  return async (app) => {
    registerAuth(app, ctx, 'management');
    await contentTypeRoutes(app, ctx);
    await fieldRoutes(app, ctx);
  };
}
