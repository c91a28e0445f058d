// @ts-check
// The example site renders on request (SSR) with the Node adapter's standalone server, so that a
// webhook can make the very next request fresh (src/lib/cache.ts); HOST and PORT set where it listens.
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone' }),
  // Links are written without a trailing slash (/en/blog); both forms are served.
  trailingSlash: 'ignore',
  devToolbar: { enabled: false },
  vite: {
    // In this npm workspace the root holds cookie 2 (Quire's); Astro needs its own cookie 1 (under
    // node_modules/astro), which the built server would not find at run time: bundle it.
    ssr: { noExternal: ['cookie'] },
  },
});
