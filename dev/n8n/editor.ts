import type { Page } from 'playwright-core';

import type { Owner } from './browser';

/**
 * The n8n editor as the browser tests walk it (test/e2e/editor.test.ts): sign-in and the
 * node creator. The selectors are n8n's `data-test-id`s that 1.123.81 and 2.40.7 share (looked up in both editor
 * bundles, n8n-editor-ui/dist/assets): `canvas-plus-button` (the empty canvas's "Add first step"; 2.x's
 * `canvas-add-first-step-button` belongs to the AI builder's prompt), `node-creator`, `node-creator-search-bar`,
 * `item-iterator-item` (with `data-keyboard-nav-type` node/action and `data-keyboard-nav-id` = node type + "-" + a
 * uuid; section labels have no type), `node-creator-item-name`, `canvas-handle-plus` (the "+" on a node's output),
 * `canvas-node` (`data-node-type`), `ndv`. The sign-in inputs are found by name: 2.x gives them ids, 1.x element-plus
 * ids (`el-id-…`).
 */

/** A result list is read once it stays the same this long (the 1.x list renders 5 items per animation frame). */
const SETTLE_MS = 300;

export interface CreatorItem {
	/** `node`, `action`, `subcategory`, `view`, … ('' for a section label). */
	kind: string;
	/** The node type for nodes and actions, the label or subcategory otherwise. */
	key: string;
	name: string;
}

/** The little of the DOM read in the page (the tests' tsconfig has no DOM types). */
interface PageElement {
	textContent: string | null;
	getAttribute(name: string): string | null;
	querySelector(selector: string): PageElement | null;
	querySelectorAll(selector: string): ArrayLike<PageElement>;
}

/** Signs in on the page the editor redirected to (`/signin`) and waits for the workflow it then opens. */
export async function signIn(page: Page, owner: Pick<Owner, 'email' | 'password'>): Promise<void> {
	await page.waitForURL((url) => url.pathname.startsWith('/signin'));
	await page.locator('input[name="emailOrLdapLoginId"]').fill(owner.email);
	await page.locator('input[name="password"]').fill(owner.password);
	await page.getByTestId('form-submit-button').click();
	await page.waitForURL((url) => url.pathname.startsWith('/workflow/'));
}

/** Every entry the node creator shows, in order. */
export async function creatorItems(page: Page): Promise<CreatorItem[]> {
	return page.getByTestId('node-creator').evaluate((creator: unknown) =>
		Array.from(
			(creator as PageElement).querySelectorAll('[data-test-id="item-iterator-item"]'),
		).map((element) => {
			const navId = element.getAttribute('data-keyboard-nav-id') ?? '';
			const name =
				element.querySelector('[data-test-id="node-creator-item-name"]')?.textContent ??
				element.textContent ??
				'';
			return {
				kind: element.getAttribute('data-keyboard-nav-type') ?? '',
				key: navId.replace(/-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, ''),
				name: name.trim(),
			};
		}),
	);
}

/** The node creator's entries once the list stops changing (within `timeoutMs`). */
export async function settledItems(page: Page, timeoutMs = 60_000): Promise<CreatorItem[]> {
	const deadline = Date.now() + timeoutMs;
	let last = JSON.stringify(await creatorItems(page));
	for (;;) {
		await page.waitForTimeout(SETTLE_MS);
		const now = JSON.stringify(await creatorItems(page));
		if (now === last) return JSON.parse(now) as CreatorItem[];
		if (Date.now() > deadline) throw new Error('the node creator list did not settle');
		last = now;
	}
}

/** Types a search into the open node creator (after clearing it) and returns the node entries listed, in order. */
export async function searchCreator(page: Page, word: string): Promise<CreatorItem[]> {
	const bar = page.getByTestId('node-creator-search-bar');
	await bar.fill('');
	await bar.fill(word);
	const typed = await bar.inputValue();
	if (typed !== word) throw new Error(`the search bar reads "${typed}", not "${word}"`);
	return (await settledItems(page)).filter((item) => item.kind === 'node');
}

export function describeResults(items: CreatorItem[]): string {
	return items.map((item, index) => `${index + 1}. ${item.name} (${item.key})`).join('\n');
}

/** The panel's heading: "What triggers this workflow?" (trigger panel) or "What happens next?" (action panel). */
export async function panelHeading(page: Page): Promise<string> {
	const heading = await page.getByTestId('nodes-list-header').first().innerText();
	return heading.split('\n')[0].trim();
}

/**
 * Closes the node creator: Escape closes it from any of its views, except (1.x) a search without results, which
 * ignores the key; a click on the empty canvas (top left, away from the nodes) closes it there.
 */
export async function closeCreator(page: Page): Promise<void> {
	const creator = page.getByTestId('node-creator');
	if (!(await creator.isVisible())) return;
	await page.keyboard.press('Escape');
	try {
		await creator.waitFor({ state: 'hidden', timeout: 2_000 });
		return;
	} catch {
		await page.mouse.click(300, 300);
	}
	await creator.waitFor({ state: 'hidden' });
}

/** The node creator's entry (node) or action of a node type. */
export function creatorEntry(page: Page, type: string, kind: 'node' | 'action' = 'node') {
	return page.locator(
		`[data-test-id="item-iterator-item"][data-keyboard-nav-type="${kind}"][data-keyboard-nav-id^="${type}-"]`,
	);
}

export function canvasNode(page: Page, type: string) {
	return page.locator(`[data-test-id="canvas-node"][data-node-type="${type}"]`);
}
