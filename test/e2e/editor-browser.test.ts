import type { Browser, BrowserContext, Page } from 'playwright-core';

import { startSandbox, type OrgDataset, type Sandbox } from '../../dev/emulators';
import {
	debugScreenshot,
	ensureChromium,
	launchChromium,
	newEditorContext,
	restLogin,
	setupOwner,
	type Owner,
} from '../../dev/n8n/browser';
import { request } from '../../dev/n8n/http';
import { selectedN8nVersions } from '../../dev/n8n/install';
import { N8nInstance } from '../../dev/n8n/n8n';
import { describeIfPackageBuilt, newCredentialId, packageUnderTest } from '../../dev/n8n/package';
import { nodeJson } from '../../dev/n8n/run-data';
import {
	chainWorkflow,
	manualTrigger,
	node,
	PACKAGE_NODE_TYPES,
	type CredentialRef,
} from '../../dev/n8n/workflows';

// The Organization node in the real n8n editor, driven in Debian's Chromium by playwright-core: a user opens the
// node, picks an organization From List (the list comes from the emulator through the node's searchRecords), and
// executes the step. n8n 2.40.7 only: the editor's test ids (data-test-id) are looked up in its bundle.

const pkg = packageUnderTest();
const VERSION = '2.40.7';
const NODE_NAME = 'Archive Organization';
const OWNER: Owner = {
	email: 'e2e-browser@archive.test',
	firstName: 'Browser',
	lastName: 'Test',
	password: 'E2e-Browser-2026',
};
/** Every editor wait: generous for a cold 2-core CI machine with another e2e file running beside it. */
const UI_TIMEOUT_MS = 60_000;

type Entity = OrgDataset['organizations'][number];

function byIri<T extends { iri: string }>(items: T[]): T[] {
	return [...items].sort((a, b) => (a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0));
}

/** The From List entry of an organization, as the node's searchRecords names it. */
function listName(entity: Entity): string {
	const name = entity.label !== '' ? entity.label : entity.iri;
	return entity.id && entity.id !== name ? `${name} (${entity.id})` : name;
}

/**
 * The organization to pick: far past the list's first pages (so it shows only after a search) and with a label no
 * other organization's label contains (the API's label search is a case-insensitive substring match), so the
 * search for its label lists exactly it.
 */
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

async function createWorkflow(baseUrl: string, cookie: string, credential: CredentialRef) {
	const { id: _importId, ...workflow } = chainWorkflow('Organization From List (browser)', [
		manualTrigger(),
		node(
			NODE_NAME,
			PACKAGE_NODE_TYPES.organization,
			{
				resource: 'organization',
				operation: 'get',
				organization: { __rl: true, mode: 'list', value: '' },
			},
			{ credentials: { archiveOrganizationApi: credential } },
		),
	]);
	const response = await request(`${baseUrl}/rest/workflows`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', cookie: `n8n-auth=${cookie}` },
		body: JSON.stringify(workflow),
	});
	if (response.status !== 200) {
		throw new Error(`POST /rest/workflows answered ${response.status}: ${response.body}`);
	}
	return (JSON.parse(response.body) as { data: { id: string } }).data.id;
}

/** True for the editor's first call of the node's searchRecords with the given search text ('' = no search). */
function isListSearch(body: string | null, filter: string): boolean {
	if (!body) return false;
	const parsed = JSON.parse(body) as {
		methodName?: string;
		filter?: string;
		paginationToken?: unknown;
	};
	return (
		parsed.methodName === 'searchRecords' &&
		(parsed.filter ?? '') === filter &&
		parsed.paginationToken === undefined
	);
}

const describeEditor = selectedN8nVersions().includes(VERSION) ? describe : describe.skip;

describeIfPackageBuilt(pkg, 'ArchiveOrganization')(`n8n ${VERSION} editor (Chromium)`, () => {
	describeEditor('Archive Organization, Get, From List', () => {
		const credential: CredentialRef = { id: newCredentialId(), name: 'Organization emulator' };
		let sandbox: Sandbox;
		let n8n: N8nInstance;
		let browser: Browser;
		let context: BrowserContext;
		let page: Page | undefined;
		let workflowId: string;
		let data: OrgDataset;
		const pageErrors: string[] = [];

		beforeAll(async () => {
			ensureChromium();
			sandbox = await startSandbox({ rows: 10, seed: 7 });
			data = sandbox.data.org;
			n8n = await N8nInstance.create({ version: VERSION, ...pkg });
			await n8n.importCredentials([
				{
					...credential,
					type: 'archiveOrganizationApi',
					data: {
						authUrl: sandbox.org.authUrl,
						apiUrl: sandbox.org.apiUrl,
						username: sandbox.org.username,
						password: sandbox.org.password,
					},
				},
			]);
			// The browser starts while n8n boots.
			[browser] = await Promise.all([launchChromium(), n8n.start()]);
			await setupOwner(n8n.baseUrl, OWNER);
			workflowId = await createWorkflow(
				n8n.baseUrl,
				await restLogin(n8n.baseUrl, OWNER),
				credential,
			);
			context = await newEditorContext(browser, n8n.baseUrl);
			context.setDefaultTimeout(UI_TIMEOUT_MS);
		});

		afterAll(async () => {
			await context?.close();
			await browser?.close();
			await n8n?.dispose();
			await sandbox?.close();
		});

		it('picks an organization From List (searched in the emulator) and executes the step', async () => {
			const organizations = byIri(data.organizations);
			const target = targetOrganization(data);
			page = await context.newPage();
			page.on('pageerror', (error) => pageErrors.push(error.message));
			try {
				// Open the workflow: the editor asks to sign in first, then goes on to the workflow (one page load).
				await page.goto(`/workflow/${workflowId}`);
				await page.waitForURL((url) => url.pathname.startsWith('/signin'));
				await page.locator('#emailOrLdapLoginId').fill(OWNER.email);
				await page.locator('#password').fill(OWNER.password);
				await page.getByTestId('form-submit-button').click();
				await page.waitForURL((url) => url.pathname === `/workflow/${workflowId}`);

				// Open the node: double-click on the canvas.
				await page
					.locator(`[data-test-id="canvas-node"][data-node-name="${NODE_NAME}"]`)
					.dblclick();
				await page.getByTestId('ndv').waitFor();
				const locator = page.getByTestId('resource-locator-organization');
				await locator.getByTestId('rlc-mode-selector').waitFor();

				// From List: the first page comes from the emulator, in IRI order.
				const firstPage = page.waitForResponse(
					(response) =>
						response.url().endsWith('/rest/dynamic-node-parameters/resource-locator-results') &&
						isListSearch(response.request().postData(), ''),
				);
				await locator.getByTestId('rlc-input').click();
				expect((await firstPage).status()).toBe(200);
				const items = locator.getByTestId('rlc-item');
				await items.first().waitFor();
				expect((await items.first().innerText()).trim()).toBe(listName(organizations[0]));

				// Search by the label: the API's label search answers with exactly the target.
				const searched = page.waitForResponse(
					(response) =>
						response.url().endsWith('/rest/dynamic-node-parameters/resource-locator-results') &&
						isListSearch(response.request().postData(), target.label),
				);
				await locator.getByTestId('rlc-search').fill(target.label);
				const searchBody = (await (await searched).json()) as {
					data: { results: Array<{ name: string; value: string }> };
				};
				expect(searchBody.data.results).toEqual([
					expect.objectContaining({ name: listName(target), value: target.iri }),
				]);
				const item = items.filter({ hasText: listName(target) });
				await item.waitFor();
				expect(await items.count()).toBe(1);
				await item.click();
				// The picked entry's name shows in the field.
				const input = await locator.getByTestId('rlc-input').elementHandle();
				await page.waitForFunction(
					({ field, name }) => (field as { value?: string } | null)?.value === name,
					{ field: input, name: listName(target) },
				);

				// Execute step: the output panel shows the organization.
				await page.getByTestId('node-execute-button').click();
				const output = page.getByTestId('output-panel');
				await output.getByTestId('node-run-status-success').waitFor();
				expect((await output.getByTestId('ndv-items-count').innerText()).trim()).toBe('1 item');
				// The table fills in after the run's status and item count show.
				const table = output.getByTestId('ndv-data-container').filter({ hasText: target.iri });
				await table.waitFor();
				const shown = await table.innerText();
				expect(shown).toContain(target.iri);
				expect(shown).toContain(target.id);
				expect(shown).toContain(target.label);
			} catch (error) {
				const file = await debugScreenshot(page, 'editor-browser-failure');
				const errors = pageErrors.length > 0 ? `\npage errors:\n${pageErrors.join('\n')}` : '';
				throw new Error(
					`${(error as Error).message}${file ? `\nscreenshot: ${file}` : ''}${errors}`,
					{ cause: error },
				);
			}

			// The manual run n8n saved holds the organization.
			const [execution] = await n8n.waitForExecutions(workflowId);
			expect(execution.status).toBe('success');
			expect(nodeJson(execution.data!, NODE_NAME)).toEqual([
				expect.objectContaining({ iri: target.iri, id: target.id, label: target.label }),
			]);
		});
	});
});
