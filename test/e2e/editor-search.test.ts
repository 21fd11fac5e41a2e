import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import type { Browser, BrowserContext, Page } from 'playwright-core';

import {
	debugScreenshot,
	ensureChromium,
	launchChromium,
	newEditorContext,
	setupOwner,
	type Owner,
} from '../../dev/n8n/browser';
import {
	canvasNode,
	closeCreator,
	describeResults,
	panelHeading,
	searchCreator as search,
	settledItems,
	signIn,
	type CreatorItem,
} from '../../dev/n8n/editor';
import { selectedN8nVersions } from '../../dev/n8n/install';
import { N8nInstance } from '../../dev/n8n/n8n';
import { describeIfPackageBuilt, packageUnderTest } from '../../dev/n8n/package';
import { PACKAGE_NODE_TYPES } from '../../dev/n8n/workflows';

// The node creator's search in the real editor (issue 40 item 1), as a user walks it on both lines, in Debian's
// Chromium driven by playwright-core: sign in, open a new workflow, search the trigger panel ("Add first step"),
// add a Manual Trigger, search the action panel ("+" after it), add Archive AI Metadata from a search.
//
// n8n drops nodes whose codex category is "AI" from searches outside the AI panel (useViewStacks' filterOutAiNodes),
// so these searches fail with the codex as it was (categories "Data & Storage" + "AI", no aliases).
//
// How the node creator lists our nodes (n8n's generateMergedNodesAndActions): a trigger whose type is another node's
// type + "Trigger" is merged into that node's entry. Archive AI Metadata Trigger is therefore not an entry of its own:
// it is the trigger of the entry "Archive AI Metadata" (keyed by the action node's type, with the action node's codex
// and the trigger's description); clicking that entry lists it under Triggers. Archive SIP Status Trigger has no
// action node and keeps its own entry.
//
// Selectors: dev/n8n/editor.ts. Each search opens its panel afresh (Escape or a click outside closes the node
// creator), so no search starts from another's state.

const pkg = packageUnderTest();
const OWNER: Owner = {
	email: 'e2e-search@archive.test',
	firstName: 'Search',
	lastName: 'Test',
	password: 'E2e-Search-2026',
};
/** Every editor wait: generous for a cold 2-core CI machine with another e2e file running beside it. */
const UI_TIMEOUT_MS = 60_000;
const SCREENSHOT_DIR = path.join(os.tmpdir(), 'n8n-editor-search');
const MANUAL_TRIGGER_TYPE = 'n8n-nodes-base.manualTrigger';

const AI_METADATA = PACKAGE_NODE_TYPES.aiMetadata;
const AI_METADATA_TRIGGER = PACKAGE_NODE_TYPES.aiMetadataTrigger;
const ORGANIZATION = PACKAGE_NODE_TYPES.organization;
const SIP_TRIGGER = PACKAGE_NODE_TYPES.sipStatusTrigger;

/** The node creator's entry of each of our node types, as the user reads it. */
const ENTRY_NAMES: Record<string, string> = {
	[AI_METADATA]: 'Archive AI Metadata',
	[ORGANIZATION]: 'Archive Organization',
	[SIP_TRIGGER]: 'Archive SIP Status Trigger',
};

const AI_METADATA_WORDS = ['metadata', 'AI metadata', 'speech', 'transcript', 'face', 'NER'];

interface SearchCase {
	word: string;
	/** Node types whose entries the results must list. */
	listed: string[];
	/** Node types whose entries must be among the first results (1-based rank at most `within`). */
	top?: { type: string; within: number };
}

/**
 * Trigger panel. The AI Metadata Trigger is the trigger of the merged "Archive AI Metadata" entry (AI_METADATA's
 * key); the test below that clicks the entry checks it lists the trigger.
 */
const TRIGGER_PANEL: SearchCase[] = [
	{ word: 'archive', listed: [AI_METADATA, SIP_TRIGGER] },
	{ word: 'SIP', listed: [SIP_TRIGGER], top: { type: SIP_TRIGGER, within: 5 } },
	{ word: 'SIP status', listed: [SIP_TRIGGER], top: { type: SIP_TRIGGER, within: 5 } },
	{ word: 'webhook', listed: [SIP_TRIGGER] },
	{ word: 'status', listed: [SIP_TRIGGER] },
	...AI_METADATA_WORDS.map((word) => ({ word, listed: [AI_METADATA] })),
];

const ACTION_PANEL: SearchCase[] = [
	{ word: 'archive', listed: [AI_METADATA, ORGANIZATION] },
	...AI_METADATA_WORDS.map((word) => ({ word, listed: [AI_METADATA] })),
	{ word: 'organization', listed: [ORGANIZATION] },
	{ word: 'content partner', listed: [ORGANIZATION] },
];

interface Resource {
	name: string;
	actions: string[];
}

/** Archive AI Metadata's resources and their actions' texts, from the built node (what the editor lists). */
function aiMetadataResources(): Resource[] {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const built = require(
		path.join(pkg.packageRoot, 'dist/nodes/ArchiveAiMetadata/ArchiveAiMetadata.node.js'),
	) as {
		ArchiveAiMetadata: new () => {
			description: {
				properties: Array<{
					name: string;
					displayOptions?: { show?: { resource?: string[] } };
					options?: Array<{ name: string; value: string; action?: string }>;
				}>;
			};
		};
	};
	const { properties } = new built.ArchiveAiMetadata().description;
	const resource = properties.find((property) => property.name === 'resource');
	return (resource?.options ?? []).map((option) => ({
		name: option.name,
		actions: properties
			.filter(
				(property) =>
					property.name === 'operation' &&
					property.displayOptions?.show?.resource?.includes(option.value),
			)
			.flatMap((property) => (property.options ?? []).map((each) => each.action ?? each.name)),
	}));
}

describeIfPackageBuilt(
	pkg,
	'ArchiveAiMetadata',
	'ArchiveAiMetadataTrigger',
	'ArchiveOrganization',
	'ArchiveSipStatusTrigger',
).each(selectedN8nVersions())('n8n %s editor: node creator search (Chromium)', (version) => {
	let n8n: N8nInstance;
	let browser: Browser;
	let context: BrowserContext;
	let page: Page;
	const pageErrors: string[] = [];
	/** What each search listed, saved beside the screenshots (`<version>-results.json`) for reading the order. */
	const record = new Map<string, CreatorItem[]>();

	/** Runs a step; on failure saves a screenshot and adds it and the page's errors to the message. */
	async function step(name: string, body: () => Promise<void>): Promise<void> {
		try {
			await body();
		} catch (error) {
			const file = await debugScreenshot(page, `editor-search-${version}-${name}-failure`);
			const errors = pageErrors.length > 0 ? `\npage errors:\n${pageErrors.join('\n')}` : '';
			throw new Error(
				`${(error as Error).message}${file ? `\nscreenshot: ${file}` : ''}${errors}`,
				{ cause: error },
			);
		}
	}

	/** The trigger panel, freshly opened from the empty canvas's "Add first step". */
	async function openTriggerPanel(): Promise<void> {
		await closeCreator(page);
		await page.getByTestId('canvas-plus-button').click();
		await page.getByTestId('node-creator-search-bar').waitFor();
		expect(await panelHeading(page)).toBe('What triggers this workflow?');
	}

	/** The action panel, freshly opened from the "+" after the Manual Trigger (added first if missing). */
	async function openActionPanel(): Promise<void> {
		if ((await canvasNode(page, MANUAL_TRIGGER_TYPE).count()) === 0) {
			await openTriggerPanel();
			const results = await search(page, 'manual trigger');
			if (!results.some((item) => item.key === MANUAL_TRIGGER_TYPE)) {
				throw new Error(`no Manual Trigger in the trigger panel:\n${describeResults(results)}`);
			}
			await page
				.locator(
					`[data-test-id="item-iterator-item"][data-keyboard-nav-id^="${MANUAL_TRIGGER_TYPE}-"]`,
				)
				.click();
			await canvasNode(page, MANUAL_TRIGGER_TYPE).waitFor();
		}
		await closeCreator(page);
		await page.getByTestId('canvas-handle-plus').click();
		await page.getByTestId('node-creator-search-bar').waitFor();
		expect(await panelHeading(page)).toBe('What happens next?');
	}

	function expectListed(results: CreatorItem[], { word, listed, top }: SearchCase): void {
		const keys = results.map((item) => item.key);
		const missing = listed.filter((type) => !keys.includes(type));
		if (missing.length > 0) {
			throw new Error(
				`"${word}" does not list ${missing.map((type) => ENTRY_NAMES[type] ?? type).join(', ')}; ` +
					`it lists:\n${describeResults(results) || '(nothing)'}`,
			);
		}
		for (const type of listed) {
			expect(results.find((item) => item.key === type)?.name).toBe(ENTRY_NAMES[type]);
		}
		if (top) {
			const rank = keys.indexOf(top.type) + 1;
			if (rank > top.within) {
				throw new Error(
					`"${word}" lists ${ENTRY_NAMES[top.type]} at rank ${rank}, not within the first ` +
						`${top.within}:\n${describeResults(results)}`,
				);
			}
		}
	}

	beforeAll(async () => {
		ensureChromium();
		fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
		n8n = await N8nInstance.create({ version, ...pkg });
		// The browser starts while n8n boots.
		[browser] = await Promise.all([launchChromium(), n8n.start()]);
		await setupOwner(n8n.baseUrl, OWNER);
		context = await newEditorContext(browser, n8n.baseUrl);
		context.setDefaultTimeout(UI_TIMEOUT_MS);
		page = await context.newPage();
		page.on('pageerror', (error) => pageErrors.push(error.message));
	});

	afterAll(async () => {
		fs.writeFileSync(
			path.join(SCREENSHOT_DIR, `${version}-results.json`),
			`${JSON.stringify(Object.fromEntries(record), null, '\t')}\n`,
		);
		await context?.close();
		await browser?.close();
		await n8n?.dispose();
	});

	it('signs in and opens a new, empty workflow', async () => {
		await step('signin', async () => {
			// A new workflow: the editor asks to sign in first, then goes on to it.
			await page.goto('/workflow/new');
			await signIn(page, OWNER);
			await page.getByTestId('canvas-plus-button').waitFor();
			expect(await page.getByTestId('canvas-node').count()).toBe(0);
		});
	});

	describe('trigger panel ("Add first step")', () => {
		it.each(TRIGGER_PANEL.map((each) => [each.word, each] as const))(
			'"%s"',
			async (_word, searchCase) => {
				await step('trigger-panel', async () => {
					await openTriggerPanel();
					const results = await search(page, searchCase.word);
					record.set(`trigger panel: ${searchCase.word}`, results);
					expectListed(results, searchCase);
				});
			},
		);

		it('the "Archive AI Metadata" entry holds the AI Metadata Trigger (merged by n8n)', async () => {
			await step('trigger-entry', async () => {
				await openTriggerPanel();
				expectListed(await search(page, 'metadata'), { word: 'metadata', listed: [AI_METADATA] });
				await page
					.locator(`[data-test-id="item-iterator-item"][data-keyboard-nav-id^="${AI_METADATA}-"]`)
					.click();
				await page
					.locator(
						`[data-test-id="item-iterator-item"][data-keyboard-nav-id^="${AI_METADATA_TRIGGER}-"]`,
					)
					.waitFor();
				const items = await settledItems(page);
				record.set('Archive AI Metadata entry (trigger panel)', items);
				expect(items.filter((item) => item.key === AI_METADATA_TRIGGER)).toEqual([
					{ kind: 'action', key: AI_METADATA_TRIGGER, name: 'On new Archive AI Metadata event' },
				]);
				await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${version}-trigger-entry.png`) });
			});
		});
	});

	describe('action panel ("What happens next?" after a Manual Trigger)', () => {
		it.each(ACTION_PANEL.map((each) => [each.word, each] as const))(
			'"%s"',
			async (_word, searchCase) => {
				await step('action-panel', async () => {
					await openActionPanel();
					const results = await search(page, searchCase.word);
					record.set(`action panel: ${searchCase.word}`, results);
					expectListed(results, searchCase);
				});
			},
		);

		it('adds Archive AI Metadata from a search: its action list, then an action on the canvas', async () => {
			const resources = aiMetadataResources();
			await step('add-ai-metadata', async () => {
				await openActionPanel();
				expectListed(await search(page, 'metadata'), { word: 'metadata', listed: [AI_METADATA] });
				await page
					.locator(`[data-test-id="item-iterator-item"][data-keyboard-nav-id^="${AI_METADATA}-"]`)
					.click();
				await page
					.locator(`[data-test-id="item-iterator-item"][data-keyboard-nav-type="action"]`)
					.first()
					.waitFor();
				const items = await settledItems(page);
				record.set('Archive AI Metadata actions (action panel)', items);
				await page.screenshot({
					path: path.join(SCREENSHOT_DIR, `${version}-ai-metadata-actions.png`),
				});
				// The whole list at once: a taller window for the panel's own screenshot.
				const viewport = page.viewportSize();
				await page.setViewportSize({ width: 1600, height: 2000 });
				await page.getByTestId('node-creator').screenshot({
					path: path.join(SCREENSHOT_DIR, `${version}-ai-metadata-actions-panel.png`),
				});
				if (viewport) await page.setViewportSize(viewport);

				// Sections "<resource> Actions", each with the resource's actions (the texts the node describes).
				const sections = new Map<string, string[]>();
				let current: string[] | undefined;
				for (const item of items) {
					if (item.kind === '') {
						current = [];
						sections.set(item.name, current);
					} else if (item.kind === 'action') {
						expect(item.key).toBe(AI_METADATA);
						current?.push(item.name);
					}
				}
				const listed = Object.fromEntries(
					[...sections].map(([name, actions]) => [name, [...actions].sort()]),
				);
				const described = Object.fromEntries(
					resources.map((resource) => [`${resource.name} Actions`, [...resource.actions].sort()]),
				);
				expect(listed).toEqual(described);

				// Picking an action adds the node after the Manual Trigger and opens it.
				const faceTasks = resources.find((resource) => resource.name === 'Face Task');
				const action = faceTasks?.actions.find((text) => /many/i.test(text)) ?? items[1].name;
				await page
					.locator('[data-test-id="item-iterator-item"][data-keyboard-nav-type="action"]')
					.filter({ hasText: action })
					.first()
					.click();
				await page.getByTestId('ndv').waitFor();
				await canvasNode(page, AI_METADATA).waitFor({ state: 'attached' });
				await page.screenshot({
					path: path.join(SCREENSHOT_DIR, `${version}-ai-metadata-added.png`),
				});
			});
		});
	});
});
