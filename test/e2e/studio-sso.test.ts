/**
 * Single sign-on in Chromium (D121; docs/studio.md "Sign-in", docs/access.md "Single sign-on"):
 * a real Quire server (SQLite) with OIDC_ONLY and a real OpenID provider on loopback
 * (oidc-provider, test/oidc-fixtures.ts). The Studio's sign-in page offers only "Sign in with
 * Test IdP"; the provider's login and consent pages lead back into the Studio signed in: the
 * bootstrap owner by verified email, a new person created as the editor the role map makes them;
 * a person the map gives nothing comes back to the sign-in page with the refusal worded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { CLIENT_ID, CLIENT_SECRET, openProvider, type OpenedProvider } from '../oidc-fixtures.js';
import { axeResults, expectAccessible, launchBrowser, openStudioPage, screenshot, skipBrowserSuites, startStudioServer, type StudioServer } from './harness.js';

const visible = (l: Locator) => l.waitFor({ state: 'visible' });
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name, level: 1 });

describe.skipIf(skipBrowserSuites())('Studio single sign-on in Chromium', () => {
  let provider: OpenedProvider;
  let server: StudioServer;
  let browser: Browser;

  beforeAll(async () => {
    provider = await openProvider({
      olive: { email: 'owner@example.com', email_verified: true, name: 'Olive Owner' },
      ned: { email: 'ned@example.com', email_verified: true, name: 'Ned New', groups: ['cms-editors'] },
      sam: { email: 'sam@example.com', email_verified: true, groups: ['somebody-else'] },
    });
    [server, browser] = await Promise.all([
      startStudioServer({
        env: {
          OIDC_ISSUER: provider.issuer,
          OIDC_CLIENT_ID: CLIENT_ID,
          OIDC_CLIENT_SECRET: CLIENT_SECRET,
          OIDC_ROLE_MAP: JSON.stringify({ 'cms-editors': { e2e: 'editor' } }),
          OIDC_ONLY: '1',
          OIDC_NAME: 'Test IdP',
        },
      }),
      launchBrowser(),
    ]);
    // Quire's port is known only now: the provider registers its redirect URI and starts answering.
    provider.serve([`${server.base}/api/v1/manage/session/oidc/callback`]);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await provider?.close();
    const lines = axeResults.map(
      (r) => `  ${r.screen}: ${r.violations.length ? r.violations.map((v) => `${v.impact} ${v.id} (${v.nodes})`).join(', ') : 'no violations'}`,
    );
    if (lines.length) process.stdout.write(`\n[studio e2e] axe results\n${lines.join('\n')}\n`);
  }, 60_000);

  /** From the Studio's sign-in page through the provider's login and consent pages as `login`. */
  async function signInWithProvider(page: Page, login: string): Promise<void> {
    await page.goto(`${server.base}/studio/`);
    await visible(heading(page, 'Sign in'));
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    // The provider's own pages (oidc-provider's development login and consent forms).
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.origin === server.base);
  }

  it('offers only the provider under OIDC_ONLY, and brings the owner back signed in', async () => {
    const page = await openStudioPage(browser, { width: 1280, height: 800 });
    await page.goto(`${server.base}/studio/`);
    await visible(heading(page, 'Sign in'));
    await visible(page.getByRole('link', { name: 'Sign in with Test IdP' }));
    await visible(page.getByText('This Quire signs people in with Test IdP only.'));
    expect(await page.getByLabel(/^Password/).count()).toBe(0);
    await expectAccessible(page, 'sign-in (single sign-on only)');

    await signInWithProvider(page, 'olive');
    await visible(heading(page, 'E2E Studio'));
    expect(new URL(page.url()).pathname).toBe(`/studio/${server.workspace.slug}`);
    const nav = page.getByRole('navigation', { name: 'Studio' });
    await visible(nav.getByText('owner@example.com'));
    await visible(nav.getByLabel('Role: owner'));
    await page.context().close();
  }, 60_000);

  it('creates a new person with the role the claim maps to', async () => {
    const page = await openStudioPage(browser, { width: 1280, height: 800 });
    await signInWithProvider(page, 'ned');
    await visible(heading(page, 'E2E Studio'));
    const nav = page.getByRole('navigation', { name: 'Studio' });
    await visible(nav.getByText('ned@example.com'));
    await visible(nav.getByLabel('Role: editor'));
    await page.context().close();
  }, 60_000);

  it('shows the refusal on the sign-in page when the claim maps to nothing', async () => {
    const page = await openStudioPage(browser, { width: 1280, height: 800 });
    await signInWithProvider(page, 'sam');
    await visible(heading(page, 'Sign in'));
    expect(new URL(page.url()).pathname).toBe('/studio/sign-in');
    const alert = page.getByRole('alert');
    await visible(alert);
    expect(await alert.textContent()).toContain('Sign-in with Test IdP refused');
    expect(await alert.textContent()).toContain('no access to any workspace');
    await expectAccessible(page, 'sign-in (single sign-on refused)');
    await screenshot(page, 'sign-in-sso-1280');
    await page.context().close();
  }, 60_000);
});
