/**
 * The demo workspace (docs/configuration.md "Configuration" (D60); issue 2 item 11). On an embedded
 * (SQLite) database that
 * holds no workspace, and unless QUIRE_DEMO=0 (config.demo), the first start creates workspace
 * `demo` (locales en and de) with the blog of content.ts and the home and about pages of pages.ts
 * (issue 3 item 5), all published, their images drawn by images.ts (issue 27 item 2), and hands
 * back its three keys to be printed once. A PostgreSQL deployment starts empty; `quire bootstrap` creates its
 * first workspace.
 *
 * Everything goes through the ordinary operations (bootstrap, storeMedia, createContentType,
 * createEntry, publishEntry) in one transaction: the demo appears whole or not at all (the image
 * files stored before a failure are removed again), and a second start finds a workspace and
 * does nothing.
 */
import type { Context } from '../../context.js';
import { databaseIsEmbedded } from '../../db/dialect.js';
import { withTransaction } from '../../db/transaction.js';
import { bootstrap, type BootstrapResult } from '../auth/operations.js';
import { systemActor, type Actor } from '../auth/permissions.js';
import { createContentType } from '../content-types/operations.js';
import { createEntry } from '../entries/operations.js';
import { publishEntry } from '../entries/publishing.js';
import { countWorkspaces } from '../workspaces/repository.js';
import { DEMO_AUTHORS, DEMO_CONTENT_TYPES, DEMO_POSTS, DEMO_PREVIEW_URL_TEMPLATE, DEMO_WORKSPACE } from './content.js';
import { DEMO_IMAGES, seedDemoImages } from './images.js';
import { seedDemoPages } from './pages.js';

export interface DemoSeedResult extends BootstrapResult {
  counts: { content_types: number; authors: number; posts: number; pages: number; images: number };
}

/** True when this start should create the demo: embedded database, demo enabled. */
export function demoWanted(ctx: Context): boolean {
  return databaseIsEmbedded(ctx.db.dialect) && ctx.config.demo;
}

/**
 * Creates the demo workspace when wanted and the database holds no workspace yet; returns what
 * was created (with the keys), or null when nothing was done.
 */
export async function seedDemo(ctx: Context): Promise<DemoSeedResult | null> {
  if (!demoWanted(ctx)) return null;
  const stored: string[] = [];
  try {
    return await seedInTransaction(ctx, stored);
  } catch (err) {
    // The rows rolled back; the image files landed outside the transaction.
    const storage = ctx.storage.backend();
    for (const key of stored) await storage.delete(key).catch((e: unknown) => ctx.log.warn({ err: e, key }, 'could not remove a demo image'));
    // Two processes starting on one empty file: SQLite lets one writer commit and refuses the
    // other's write; the loser finds the demo there and carries on.
    if ((await countWorkspaces(ctx.db)) > 0) return null;
    throw err;
  }
}

async function seedInTransaction(ctx: Context, stored: string[]): Promise<DemoSeedResult | null> {
  return withTransaction(ctx.db, async (db) => {
    if ((await countWorkspaces(db)) > 0) return null;
    const tx = { ...ctx, db };
    const boot = await bootstrap(tx, { ...DEMO_WORKSPACE, locales: [...DEMO_WORKSPACE.locales], preview_url_template: DEMO_PREVIEW_URL_TEMPLATE });
    const actor = systemActor(boot.workspace.id, boot.user.id);
    const { postIds, imageIds } = await seedDemoEntries(tx, actor, stored);
    const pages = await seedDemoPages(tx, actor, postIds, imageIds);
    return {
      ...boot,
      counts: { content_types: DEMO_CONTENT_TYPES.length, authors: DEMO_AUTHORS.length, posts: DEMO_POSTS.length, pages, images: DEMO_IMAGES.length },
    };
  });
}

/**
 * The demo's images, content types, authors and posts (published, German translations, each
 * post with its cover), written in the workspace of `actor`; returns the entry ids by slug and
 * the media ids by image file name. `stored` receives the storage key of each image file (see
 * seedDemoImages). Pages come after (seedDemoPages). Also used by suites that need the demo
 * content on any database.
 */
export async function seedDemoEntries(
  tx: Context,
  actor: Actor,
  stored: string[] = [],
): Promise<{ authorIds: Map<string, string>; postIds: Map<string, string>; imageIds: Map<string, string> }> {
  const imageIds = await seedDemoImages(tx, actor, stored);
  for (const ct of DEMO_CONTENT_TYPES) await createContentType(tx, actor, ct);
  const authorIds = new Map<string, string>();
  for (const a of DEMO_AUTHORS) {
    const entry = await createEntry(tx, actor, 'author', {
      slug: a.slug,
      data: { name: a.name, role: a.role.en, bio: a.bio.en, website: a.website },
      translations: { de: { data: { role: a.role.de, bio: a.bio.de } } },
    });
    await publishEntry(tx, actor, 'author', { id: entry.id });
    authorIds.set(a.slug, entry.id);
  }
  const postIds = new Map<string, string>();
  for (const post of DEMO_POSTS) {
    const entry = await createEntry(tx, actor, 'post', {
      slug: post.slug,
      data: {
        ...post.en,
        cover: imageIds.get(post.cover),
        author: authorIds.get(post.author),
        tags: post.tags,
        published_on: post.published_on,
        reading_minutes: post.reading_minutes,
      },
      translations: { de: { data: post.de } },
    });
    await publishEntry(tx, actor, 'post', { id: entry.id });
    postIds.set(post.slug, entry.id);
  }
  return { authorIds, postIds, imageIds };
}

/**
 * The text printed once after seeding: the three keys, curl examples against `publicUrl`, the one
 * command that starts the example site for the live preview (its keys filled in), and the demo
 * owner's one-time Studio setup link (D90).
 */
export function demoBanner(demo: DemoSeedResult, publicUrl: string): string {
  const { management, delivery, preview } = demo.keys;
  const base = publicUrl.replace(/\/+$/, '');
  const firstPost = DEMO_POSTS[0].slug;
  return [
    '',
    `Quire created the demo workspace '${demo.workspace.slug}' (locales ${DEMO_WORKSPACE.locales.join(', ')}): ${demo.counts.authors} authors, ${demo.counts.posts} published posts with cover images and ${demo.counts.pages} pages built from blocks.`,
    'Its API keys are shown only now; store them:',
    `  management  ${management}`,
    `  delivery    ${delivery}`,
    `  preview     ${preview}`,
    '',
    'Try:',
    `  curl -H 'X-API-Key: ${delivery}' '${base}/api/v1/public/entries?type=post&locale=de'`,
    `  curl -H 'X-API-Key: ${delivery}' '${base}/api/v1/public/entries/${firstPost}?type=post&fields=title,body_html,author.name'`,
    `  curl -H 'X-API-Key: ${delivery}' '${base}/api/v1/public/pages/home?locale=de'`,
    `  curl -H 'X-API-Key: ${delivery}' '${base}/api/v1/public/schema'`,
    `  curl -H 'X-API-Key: ${management}' '${base}/api/v1/manage/content-types/post/entries'`,
    '',
    'Live preview: the demo previews entries and pages on the example site (http://localhost:4321) once it runs; start it from the repository root with:',
    `  QUIRE_URL=${base} QUIRE_DELIVERY_KEY=${delivery} PUBLIC_QUIRE_DELIVERY_KEY=${delivery} QUIRE_PREVIEW_KEY=${preview} npm run dev -w examples/site`,
    "Until it runs, the Studio's live preview offers its built-in preview.",
    '',
    ...(demo.setup_url
      ? [`Studio: set the password of ${demo.user.email} within 72 hours (one-time link), then sign in at ${base}/studio/:`, `  ${demo.setup_url}`, '']
      : []),
    'Set QUIRE_DEMO=0 to start without the demo workspace.',
    '',
  ].join('\n');
}
