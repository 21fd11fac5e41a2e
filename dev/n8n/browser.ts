import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

import { chromium, selectors, type Browser, type BrowserContext, type Page } from 'playwright-core';

import { request } from './http';
import { REPO_ROOT } from './install';

/**
 * Debian's Chromium driven by playwright-core, for the editor browser tests (test/e2e/editor-*.test.ts) and
 * `npm run screenshots`. Playwright's own browser download is not reachable here, so the browser comes from
 * `apt-get install chromium` (scripts/install-chromium.sh). Environment: CHROMIUM (default /usr/bin/chromium).
 */

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/**
 * Flags that work on these machines (closed network, root): without the background-networking ones Chromium's
 * connections to Google's hosts are refused, many at a time.
 */
const CHROMIUM_FLAGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--hide-scrollbars',
];

export interface Owner {
	email: string;
	firstName: string;
	lastName: string;
	password: string;
}

/** Installs Debian's Chromium when it is missing (scripts/install-chromium.sh; a no-op when present). */
export function ensureChromium(): void {
	const result = spawnSync('bash', [path.join(REPO_ROOT, 'scripts', 'install-chromium.sh')], {
		env: { ...process.env, CHROMIUM },
		encoding: 'utf8',
		stdio: ['ignore', 'inherit', 'pipe'],
	});
	if (result.status !== 0) {
		throw new Error(`scripts/install-chromium.sh failed (${result.status}): ${result.stderr}`);
	}
}

/** n8n's own test ids are `data-test-id`, not Playwright's default `data-testid`. */
let testIdAttributeSet = false;

export async function launchChromium(): Promise<Browser> {
	if (!testIdAttributeSet) {
		selectors.setTestIdAttribute('data-test-id');
		testIdAttributeSet = true;
	}
	return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}

/** A browser context sized like a laptop screen, with English UI text. */
export function newEditorContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
	return browser.newContext({
		baseURL,
		viewport: { width: 1600, height: 1000 },
		deviceScaleFactor: 1,
		locale: 'en-US',
	});
}

/** Creates n8n's owner account (a fresh instance asks for one first); a no-op once one exists. */
export async function setupOwner(baseUrl: string, owner: Owner): Promise<void> {
	const response = await request(`${baseUrl}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(owner),
	});
	if (response.status !== 200 && !/already|setup/i.test(response.body)) {
		throw new Error(`owner setup answered ${response.status}: ${response.body}`);
	}
}

/** The login body: 1.x and 2.x take `emailOrLdapLoginId`; older releases took `email`. */
function loginBody(owner: Pick<Owner, 'email' | 'password'>): string {
	return JSON.stringify({
		emailOrLdapLoginId: owner.email,
		email: owner.email,
		password: owner.password,
	});
}

/** Logs in over REST and returns the `n8n-auth` cookie value (for REST calls outside the browser). */
export async function restLogin(
	baseUrl: string,
	owner: Pick<Owner, 'email' | 'password'>,
): Promise<string> {
	const response = await request(`${baseUrl}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: loginBody(owner),
	});
	const cookies = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
	const auth = cookies.map((cookie) => /^n8n-auth=([^;]+)/.exec(cookie)?.[1]).find(Boolean);
	if (response.status !== 200 || !auth) {
		throw new Error(`login as ${owner.email} failed (${response.status}): ${response.body}`);
	}
	return auth;
}

/** Logs the browser context in without the sign-in page (the context keeps n8n's auth cookie). */
export async function loginContext(
	context: BrowserContext,
	owner: Pick<Owner, 'email' | 'password'>,
): Promise<void> {
	const response = await context.request.post('/rest/login', {
		headers: { 'content-type': 'application/json' },
		data: loginBody(owner),
	});
	if (!response.ok()) {
		throw new Error(
			`login as ${owner.email} failed (${response.status()}): ${await response.text()}`,
		);
	}
}

/** Saves a screenshot of the page for debugging, never failing the caller. Returns the file or undefined. */
export async function debugScreenshot(
	page: Page | undefined,
	name: string,
): Promise<string | undefined> {
	if (!page || page.isClosed()) return undefined;
	const file = path.join(REPO_ROOT, '.build', `${name}.png`);
	try {
		await page.screenshot({ path: file, fullPage: true, timeout: 10_000 });
		return file;
	} catch {
		return undefined;
	}
}
