import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import type { Browser, BrowserContext, Locator, Page, Response } from 'playwright-core';

import { startSandbox, type OrgDataset, type Sandbox } from '../../dev/emulators';
import { buildSuccessEvent, generateSecret, send } from '../../dev/emulators/webhook/sender';
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
	creatorEntry,
	describeResults,
	panelHeading,
	searchCreator,
	settledItems,
	signIn,
	type CreatorItem,
} from '../../dev/n8n/editor';
import { REPO_ROOT, selectedN8nVersions } from '../../dev/n8n/install';
import { N8nInstance } from '../../dev/n8n/n8n';
import { describeIfPackageBuilt, newCredentialId, packageUnderTest } from '../../dev/n8n/package';
import { nodeJson } from '../../dev/n8n/run-data';
import { PACKAGE_NODE_TYPES } from '../../dev/n8n/workflows';

// Two walks through the editor in Chromium, in one file so that they share, per version, one n8n (with the walk's
// emulators and credentials) and one browser: an n8n start-up and a browser launch cost 10-20 s each on 2 cores.
// Each walk has its own browser context (its own sign-in, cookies and page), so neither starts from the other's
// state; the node creator search runs first and leaves only an unsaved workflow behind.
//
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

//
// A new user's walk through the editor on both lines (issue 40 items 5 and 6), in Debian's Chromium driven by
// playwright-core, against one n8n and the built-in emulators: sign in, open a new workflow, find each of the four
// nodes in the node creator by two or more words and add it, the credentials (imported, one per type) already chosen.
// Workflow 1: Archive AI Metadata Trigger (trigger panel) → Archive AI Metadata, Get a speech task (action panel; a
// task From List; Execute step) → Archive Organization, Get an organization (an organization From List: the first
// page in IRI order, then a label search; Execute step; the saved run holds it). Workflow 2: Archive SIP Status
// Trigger: Execute step listens at the Test URL; a signed event shows in the output; an event signed with another
// secret fails the test run (500) and the editor shows why. A screenshot per step in .build/editor-walk/<version>/.
//
// The button that listens for a test event reads "Execute step" on both lines (NodeExecuteButton's label: "Listen for
// test event" only for n8n's own Webhook node, "Fetch Test Event" for polling triggers), in the NDV's header
// (`node-execute-button`) and in the trigger panel (`trigger-execute-button`); the canvas shows "Execute workflow".
// Selectors in both lines' bundles besides dev/n8n/editor.ts: `node-execute-button`, `output-panel`,
// `ndv-items-count`, `ndv-data-container`, `node-error-message`, `resource-locator-<parameter>`, `rlc-input`,
// `rlc-item`, `rlc-search`, `trigger-listening`.

const pkg = packageUnderTest();
/** One owner for both walks; each signs in from a browser context of its own. */
const OWNER: Owner = {
	email: 'e2e-editor@archive.test',
	firstName: 'Editor',
	lastName: 'Test',
	password: 'E2e-Editor-2026',
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

const LIST_RESULTS = '/rest/dynamic-node-parameters/resource-locator-results';

type Entity = OrgDataset['organizations'][number];

function byIri<T extends { iri: string }>(items: T[]): T[] {
	return [...items].sort((a, b) => (a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0));
}

/** The From List entry of an organization, as the node's searchRecords names it. */
function listName(entity: Entity): string {
	const name = entity.label !== '' ? entity.label : entity.iri;
	return entity.id && entity.id !== name ? `${name} (${entity.id})` : name;
}

/** An organization past the list's first page whose label no other label contains: its search lists only it. */
function targetOrganization(data: OrgDataset): Entity {
	const sorted = byIri(data.organizations);
	const labels = sorted.map((each) => each.label.toLowerCase());
	const target = sorted.slice(Math.floor(sorted.length / 2)).find((candidate) => {
		const needle = candidate.label.toLowerCase();
		return (
			needle !== '' &&
			labels.filter((label) => label.includes(needle)).length === 1 &&
			candidate.id !== undefined
		);
	});
	if (!target) throw new Error('no organization with a unique label in the emulator data');
	return target;
}

interface ListResults {
	data: { results: Array<{ name: string; value: string }> };
}

/** The editor's first call of a From List search with the given text ('' = the list as it opens). */
function isListSearch(response: Response, filter: string): boolean {
	if (!response.url().endsWith(LIST_RESULTS)) return false;
	const body = JSON.parse(response.request().postData() ?? '{}') as {
		filter?: string;
		paginationToken?: unknown;
	};
	return (body.filter ?? '') === filter && body.paginationToken === undefined;
}

/** Waits until an input shows `value` (the editor fills some fields a moment after the click). */
async function expectInputValue(input: Locator, value: string): Promise<void> {
	const deadline = Date.now() + UI_TIMEOUT_MS;
	let shown = await input.inputValue();
	while (shown !== value && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 200));
		shown = await input.inputValue();
	}
	expect(shown).toBe(value);
}

function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

describeIfPackageBuilt(
	pkg,
	'ArchiveAiMetadata',
	'ArchiveAiMetadataTrigger',
	'ArchiveOrganization',
	'ArchiveSipStatusTrigger',
).each(selectedN8nVersions())('n8n %s editor (Chromium)', (version) => {
	const signingSecret = generateSecret(32);
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let browser: Browser;

	beforeAll(async () => {
		ensureChromium();
		sandbox = await startSandbox({ rows: 10, seed: 7 });
		n8n = await N8nInstance.create({ version, ...pkg });
		await n8n.importCredentials([
			{
				id: newCredentialId(),
				name: 'Organization emulator',
				type: 'archiveOrganizationApi',
				data: {
					authUrl: sandbox.org.authUrl,
					apiUrl: sandbox.org.apiUrl,
					username: sandbox.org.username,
					password: sandbox.org.password,
				},
			},
			{
				id: newCredentialId(),
				name: 'AI metadata emulator',
				type: 'archiveAiMetadataApi',
				data: {
					authUrl: sandbox.ai.authUrl,
					graphqlUrl: sandbox.ai.graphqlUrl,
					email: sandbox.ai.email,
					password: sandbox.ai.password,
				},
			},
			{
				id: newCredentialId(),
				name: 'SIP signing secret',
				type: 'archiveSipWebhookApi',
				data: { signingSecret },
			},
		]);
		// The browser starts while n8n boots.
		[browser] = await Promise.all([launchChromium(), n8n.start()]);
		await setupOwner(n8n.baseUrl, OWNER);
	});

	afterAll(async () => {
		await browser?.close();
		await n8n?.dispose();
		await sandbox?.close();
	});

	describe('node creator search', () => {
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
				const results = await searchCreator(page, 'manual trigger');
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
			fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
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
						const results = await searchCreator(page, searchCase.word);
						record.set(`trigger panel: ${searchCase.word}`, results);
						expectListed(results, searchCase);
					});
				},
			);

			it('the "Archive AI Metadata" entry holds the AI Metadata Trigger (merged by n8n)', async () => {
				await step('trigger-entry', async () => {
					await openTriggerPanel();
					expectListed(await searchCreator(page, 'metadata'), {
						word: 'metadata',
						listed: [AI_METADATA],
					});
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
					await page.screenshot({
						path: path.join(SCREENSHOT_DIR, `${version}-trigger-entry.png`),
					});
				});
			});
		});

		describe('action panel ("What happens next?" after a Manual Trigger)', () => {
			it.each(ACTION_PANEL.map((each) => [each.word, each] as const))(
				'"%s"',
				async (_word, searchCase) => {
					await step('action-panel', async () => {
						await openActionPanel();
						const results = await searchCreator(page, searchCase.word);
						record.set(`action panel: ${searchCase.word}`, results);
						expectListed(results, searchCase);
					});
				},
			);

			it('adds Archive AI Metadata from a search: its action list, then an action on the canvas', async () => {
				const resources = aiMetadataResources();
				await step('add-ai-metadata', async () => {
					await openActionPanel();
					expectListed(await searchCreator(page, 'metadata'), {
						word: 'metadata',
						listed: [AI_METADATA],
					});
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

	describe("a new user's walk", () => {
		const shots = path.join(REPO_ROOT, '.build', 'editor-walk', version);
		let context: BrowserContext;
		let page: Page;
		let walkStarted = 0;
		let shotCount = 0;
		const pageErrors: string[] = [];
		const buttonLabels = new Set<string>();

		async function screenshot(name: string): Promise<string> {
			shotCount += 1;
			// Onto a blank spot (the output panel's, or the node creator's, lower part): a hovered button is drawn without
			// its label, the backdrop and the input panel's node icon dim the NDV on 1.x.
			await page.mouse.move(1300, 800).catch(() => undefined);
			const file = path.join(shots, `${String(shotCount).padStart(2, '0')}-${name}.png`);
			await page.screenshot({ path: file, timeout: 10_000 }).catch(() => undefined);
			return file;
		}

		/** Runs a step, then saves its screenshot; on failure the screenshot and the page's errors join the message. */
		async function step(name: string, body: () => Promise<void>): Promise<void> {
			try {
				await body();
			} catch (error) {
				const file = await screenshot(`${name}-failure`);
				const errors = pageErrors.length > 0 ? `\npage errors:\n${pageErrors.join('\n')}` : '';
				throw new Error(`${(error as Error).message}\nscreenshot: ${file}${errors}`, {
					cause: error,
				});
			}
			await screenshot(name);
		}

		/** Searches the open node creator by each word; every search lists the entry (within `top` when given). */
		async function expectFound(
			type: string,
			words: string[],
			top?: { within: number; words: string[] },
		) {
			let results: CreatorItem[] = [];
			for (const word of words) {
				results = await searchCreator(page, word);
				const rank = results.findIndex((item) => item.key === type) + 1;
				const listing = `"${word}" lists:\n${describeResults(results) || '(nothing)'}`;
				if (rank === 0) throw new Error(`${ENTRY_NAMES[type]} not found; ${listing}`);
				expect(results[rank - 1].name).toBe(ENTRY_NAMES[type]);
				if (top?.words.includes(word) && rank > top.within) {
					throw new Error(
						`${ENTRY_NAMES[type]} at rank ${rank}, not in the first ${top.within}; ${listing}`,
					);
				}
			}
		}

		/** Opens the action panel from the "+" on the last node's output. */
		async function openActionPanel(): Promise<void> {
			await page.getByTestId('canvas-handle-plus').last().click();
			await page.getByTestId('node-creator-search-bar').waitFor();
			expect(await panelHeading(page)).toBe('What happens next?');
		}

		/** Clicks an entry's action by its text; the node lands on the canvas and its NDV opens. */
		async function addAction(type: string, action: string): Promise<void> {
			await creatorEntry(page, type).first().click();
			await page
				.locator('[data-test-id="item-iterator-item"][data-keyboard-nav-type="action"]')
				.filter({ hasText: action })
				.first()
				.click();
			await page.getByTestId('ndv').waitFor();
			await canvasNode(page, type).waitFor({ state: 'attached' });
		}

		async function closeNdv(): Promise<void> {
			await page.keyboard.press('Escape');
			await page.getByTestId('ndv').waitFor({ state: 'hidden' });
		}

		/** The credential the node was given (the only one of its type), as its select shows it. */
		async function expectCredential(name: string): Promise<void> {
			const select = page.getByTestId('node-credentials-select').locator('input');
			await expectInputValue(select, name);
		}

		/** Opens a resource locator's From List and picks the entry the emulator listed under `pick`. */
		async function pickFromList(
			parameter: string,
			pick: (first: ListResults) => Promise<{ name: string; value: string }>,
		): Promise<{ name: string; value: string }> {
			const locator = page.getByTestId(`resource-locator-${parameter}`);
			const opened = page.waitForResponse((response) => isListSearch(response, ''));
			await locator.getByTestId('rlc-input').click();
			const firstPage = await opened;
			expect(firstPage.status()).toBe(200);
			const chosen = await pick((await firstPage.json()) as ListResults);
			await locator.getByTestId('rlc-item').filter({ hasText: chosen.name }).first().click();
			const input = locator.getByTestId('rlc-input');
			await expectInputValue(input, chosen.name);
			return chosen;
		}

		/** Execute step; resolves with the output panel's data once it holds `text`. */
		async function executeStep(text: string): Promise<string> {
			await page.getByTestId('node-execute-button').click();
			const table = page
				.getByTestId('output-panel')
				.getByTestId('ndv-data-container')
				.filter({ hasText: text });
			await table.waitFor();
			return table.innerText();
		}

		beforeAll(async () => {
			fs.rmSync(shots, { recursive: true, force: true });
			fs.mkdirSync(shots, { recursive: true });
			context = await newEditorContext(browser, n8n.baseUrl);
			context.setDefaultTimeout(UI_TIMEOUT_MS);
			page = await context.newPage();
			page.on('pageerror', (error) => pageErrors.push(error.message));
			// Leaving a workflow for a new one: the browser's "leave the page?" question is answered yes.
			page.on('dialog', (dialog) => void dialog.accept());
			walkStarted = Date.now();
		});

		afterAll(async () => {
			console.log(
				`n8n ${version} walk: ${seconds(Date.now() - walkStarted)}; listening button: ` +
					`${[...buttonLabels].map((label) => `"${label}"`).join(', ')}; screenshots in ${shots}`,
			);
			await context?.close();
		});

		it('signs in and opens a new workflow', async () => {
			await step('signed-in', async () => {
				await page.goto('/workflow/new');
				await signIn(page, OWNER);
				await page.getByTestId('canvas-plus-button').waitFor();
			});
		});

		it('trigger panel: finds Archive AI Metadata Trigger by "metadata" and "speech" and adds it', async () => {
			await step('ai-trigger-search', async () => {
				await page.getByTestId('canvas-plus-button').click();
				await page.getByTestId('node-creator-search-bar').waitFor();
				expect(await panelHeading(page)).toBe('What triggers this workflow?');
				// n8n merges the trigger into the "Archive AI Metadata" entry, which lists it under Triggers.
				await expectFound(AI_METADATA, ['metadata', 'speech']);
			});
			await step('ai-trigger-added', async () => {
				await creatorEntry(page, AI_METADATA).first().click();
				await creatorEntry(page, AI_METADATA_TRIGGER, 'action').first().click();
				await page.getByTestId('ndv').waitFor();
				await canvasNode(page, AI_METADATA_TRIGGER).waitFor({ state: 'attached' });
				await expectCredential('AI metadata emulator');
				await page.getByText('Loading fields').first().waitFor({ state: 'hidden' });
			});
			await closeNdv();
		});

		it('action panel: finds Archive AI Metadata by "metadata" and "speech"; a speech task From List, executed', async () => {
			await step('ai-metadata-search', async () => {
				await openActionPanel();
				await expectFound(AI_METADATA, ['metadata', 'speech']);
			});
			let task = { name: '', value: '' };
			let shown = '';
			await step('ai-metadata-output', async () => {
				await addAction(AI_METADATA, 'Get a speech task');
				await expectCredential('AI metadata emulator');
				task = await pickFromList('taskId', async ({ data }) => {
					expect(data.results.length).toBeGreaterThan(0);
					return data.results[0];
				});
				// The trigger runs first (its newest record), then the Get: the task's id shows in the output.
				shown = await executeStep(task.value);
			});
			// A value of the emulator's dataset: the task's title.
			const row = sandbox.data.ai.rows('speech_tasks').find((each) => each.task_id === task.value);
			expect(row).toBeDefined();
			expect(shown).toContain(String(row!.title));
			await closeNdv();
		});

		it('action panel: finds Archive Organization by "organization" and "content partner"; one From List, executed', async () => {
			const data = sandbox.data.org;
			const target = targetOrganization(data);
			await step('organization-search', async () => {
				await openActionPanel();
				await expectFound(ORGANIZATION, ['organization', 'content partner']);
			});
			await step('organization-output', async () => {
				await addAction(ORGANIZATION, 'Get an organization');
				await expectCredential('Organization emulator');
				await pickFromList('organization', async ({ data: first }) => {
					// The first page comes from the emulator in IRI order; a label search lists exactly the target.
					const locator = page.getByTestId('resource-locator-organization');
					const items = locator.getByTestId('rlc-item');
					expect(first.results[0].name).toBe(listName(byIri(data.organizations)[0]));
					await items.first().waitFor();
					expect((await items.first().innerText()).trim()).toBe(first.results[0].name);
					const searched = page.waitForResponse((response) => isListSearch(response, target.label));
					await locator.getByTestId('rlc-search').fill(target.label);
					const body = (await (await searched).json()) as ListResults;
					expect(body.data.results).toEqual([
						expect.objectContaining({ name: listName(target), value: target.iri }),
					]);
					await items.filter({ hasText: listName(target) }).waitFor();
					expect(await items.count()).toBe(1);
					return body.data.results[0];
				});
				const shown = await executeStep(target.iri);
				expect(shown).toContain(target.id);
				expect(shown).toContain(target.label);
				const count = page.getByTestId('output-panel').getByTestId('ndv-items-count');
				expect((await count.innerText()).trim()).toBe('1 item');
			});
			// The manual run n8n saved holds the organization (n8n names a new node after the action picked).
			const nodeName = await canvasNode(page, ORGANIZATION).getAttribute('data-node-name');
			const workflowId = new URL(page.url()).pathname.split('/')[2];
			const executions = await n8n.waitForExecutions(workflowId, 2);
			const run = executions.find((execution) =>
				JSON.stringify(execution.data ?? '').includes(target.iri),
			);
			expect(run?.status).toBe('success');
			expect(nodeJson(run!.data!, nodeName!)).toEqual([
				expect.objectContaining({ iri: target.iri, id: target.id, label: target.label }),
			]);
			await closeNdv();
		});

		describe('Archive SIP Status Trigger (a new workflow)', () => {
			let testUrl = '';

			/** Execute step: the trigger listens at its Test URL (n8n saves the workflow first). */
			async function listen(): Promise<void> {
				for (const id of ['node-execute-button', 'trigger-execute-button']) {
					const button = page.getByTestId(id).first();
					if (await button.isVisible())
						buttonLabels.add(`${id}: ${(await button.innerText()).trim()}`);
				}
				await page.getByTestId('node-execute-button').click();
				await page.getByTestId('trigger-listening').first().waitFor();
			}

			it('trigger panel: finds it by "webhook", "SIP" and "SIP status" (the last two in the first five) and adds it', async () => {
				await step('sip-trigger-search', async () => {
					await page.goto('/workflow/new');
					await page.getByTestId('canvas-plus-button').click();
					await page.getByTestId('node-creator-search-bar').waitFor();
					expect(await panelHeading(page)).toBe('What triggers this workflow?');
					await expectFound(SIP_TRIGGER, ['webhook', 'SIP', 'SIP status'], {
						within: 5,
						words: ['SIP', 'SIP status'],
					});
				});
				await step('sip-trigger-added', async () => {
					await creatorEntry(page, SIP_TRIGGER).first().click();
					// An entry without actions: both lines show the community node's details first, with "Add to workflow".
					const add = page.getByRole('button', { name: 'Add to workflow' });
					await add.waitFor();
					await screenshot('sip-trigger-details');
					await add.click();
					await page.getByTestId('ndv').waitFor();
					await canvasNode(page, SIP_TRIGGER).waitFor({ state: 'attached' });
					await expectCredential('SIP signing secret');
				});
			});

			it('Execute step listens at the Test URL; a signed test event shows in the output panel', async () => {
				const event = buildSuccessEvent();
				await step('sip-test-url', async () => {
					// The Test URL, as a user copies it: Webhook URLs, Test URL.
					await page.getByText('Webhook URLs').first().click();
					await page.getByText('Test URL', { exact: true }).first().click();
					const shown = page.getByText(/\/webhook-test\/[0-9a-f-]+\/sip-status/).first();
					const path = /\/webhook-test\/[0-9a-f-]+\/sip-status/.exec(await shown.innerText());
					expect(path).not.toBeNull();
					testUrl = `${n8n.baseUrl}${path![0]}`;
				});
				await step('sip-listening', listen);
				await step('sip-test-event', async () => {
					const sent = await send(testUrl, event, { secrets: [signingSecret] });
					expect(sent.status).toBe(204);
					const table = page
						.getByTestId('output-panel')
						.getByTestId('ndv-data-container')
						.filter({ hasText: event.data.correlation_id });
					await table.waitFor();
					expect(await table.innerText()).toContain(event.data.pid);
				});
			});

			it('a test event signed with another secret fails the test run (500) and the editor says why', async () => {
				await step('sip-refused', async () => {
					await listen();
					const sent = await send(testUrl, buildSuccessEvent(), { secrets: [generateSecret(32)] });
					expect(sent.status).toBe(500);
					await page
						.getByTestId('node-error-message')
						.filter({ hasText: 'its signature matches none of the signing secrets' })
						.first()
						.waitFor();
					await page.getByTestId('trigger-listening').first().waitFor({ state: 'hidden' });
				});
			});
		});
	});
});
