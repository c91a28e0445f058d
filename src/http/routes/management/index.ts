/**
 * The management API plugin (`/api/v1/manage`): cookies (Studio sessions, D90), authentication
 * by management key or session, then one file per resource. Routes only parse and reply; the
 * rules live in src/modules.
 */
import cookie from '@fastify/cookie';
import type { FastifyPluginAsync } from 'fastify';
import type { Context } from '../../../context.js';
import { registerAuth } from '../../auth-hooks.js';
import { registerRateLimit } from '../../rate-limit.js';
import { registerIdempotency } from '../../idempotency.js';
import { auditLogRoutes } from './audit-log.js';
import { roleRoutes } from './roles.js';
import { commentRoutes } from './comments.js';
import { notificationRoutes } from './notifications.js';
import { contentTypeRoutes } from './content-types.js';
import { fieldRoutes } from './fields.js';
import { mediaRoutes } from './media.js';
import { previewTokenRoutes } from './preview-tokens.js';
import { entryRoutes } from './entries.js';
import { pageRoutes } from './pages.js';
import { releaseRoutes } from './releases.js';
import { sessionRoutes } from './session.js';
import { sessionOidcRoutes } from './session-oidc.js';
import { studioAdminRoutes } from './studio-admin.js';
import { studioEventRoutes } from './studio-events.js';
import { webhookRoutes } from './webhooks.js';
import { workflowRoutes } from './workflows.js';

export function managementRoutes(ctx: Context): FastifyPluginAsync {
  return async (app) => {
    // Parses cookies in an onRequest hook, which must run before the auth hook.
    await app.register(cookie);
    registerAuth(app, ctx, 'management');
    registerRateLimit(app, ctx, ctx.config.rateLimitManagement, 'management');
    registerIdempotency(app, ctx);
    await contentTypeRoutes(app, ctx);
    await fieldRoutes(app, ctx);
    await mediaRoutes(app, ctx);
    await previewTokenRoutes(app, ctx);
    await entryRoutes(app, ctx);
    await pageRoutes(app, ctx);
    await sessionRoutes(app, ctx);
    await sessionOidcRoutes(app, ctx);
    await studioAdminRoutes(app, ctx);
    await webhookRoutes(app, ctx);
    await releaseRoutes(app, ctx);
    await auditLogRoutes(app, ctx);
    await roleRoutes(app, ctx);
    await workflowRoutes(app, ctx);
    await studioEventRoutes(app, ctx);
    await commentRoutes(app, ctx);
    await notificationRoutes(app, ctx);
  };
}
