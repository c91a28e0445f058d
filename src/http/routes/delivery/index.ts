/**
 * The delivery API plugin (`/api/v1/public`): delivery-key authentication, then one file per
 * resource. Read-only.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Context } from '../../../context.js';
import { registerAuth } from '../../auth-hooks.js';

export function deliveryRoutes(ctx: Context): FastifyPluginAsync {
  return async (app) => {
    registerAuth(app, ctx, 'delivery');
  };
}
