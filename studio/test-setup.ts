/**
 * Setup of the Studio's component tests (jsdom), run before each test file: jest-dom matchers,
 * the browser APIs that Mantine reads and jsdom lacks (matchMedia, ResizeObserver,
 * scrollIntoView), a window reset to its first state, and no notification left between tests.
 */
import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Mantine's notifications live in a module-level store, which files of one worker share: a toast
// left by one test ('Webhook deleted') showed up as a second alert in another file's test.
afterEach(() => {
  cleanup();
  notifications.clean();
});

// Files share their worker's window (vitest.config.ts: isolate false); each starts from what a
// fresh jsdom holds: empty storage, and the path of its first URL (http://localhost:3000/).
localStorage.clear();
sessionStorage.clear();
window.history.replaceState(null, '', '/');

// Screens are loaded lazily, and the first import of a chunk under a loaded CI machine can take
// more than testing-library's default 1 s; a screen that never appears still fails.
configure({ asyncUtilTimeout: 5000 });

if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
class NoopResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
window.ResizeObserver ??= NoopResizeObserver as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
