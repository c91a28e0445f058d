/** `GET /`: sends the visitor to the home page in the locale their browser prefers among the workspace's, else the default one. */
import type { APIRoute } from 'astro';
import { preferredLocale } from '../lib/quire';

export const GET: APIRoute = async ({ request, redirect }) => redirect(`/${await preferredLocale(request.headers.get('accept-language'))}`, 302);
