import * as fs from 'node:fs';
import * as path from 'node:path';

import { startSandbox, type Sandbox } from '../../dev/emulators';
import { selectedN8nVersions } from '../../dev/n8n/install';
import { N8nInstance } from '../../dev/n8n/n8n';
import { describeIfPackageBuilt, newCredentialId, packageUnderTest } from '../../dev/n8n/package';
import { nodeJson, type RunExecutionData } from '../../dev/n8n/run-data';
import { newWorkflowId, type WorkflowJson } from '../../dev/n8n/workflows';
import { aiCredentialImport, orgCredentialImport } from '../../dev/n8n/credentials';

// A workflow saved in the editor's format before the nodes were restructured (typeVersion 1, default parameters
// left out, the Organization node's old "getMany" value) must load and give the same results after it: node type
// names, parameter names and defaults are the contract with every saved workflow.

const pkg = packageUnderTest();
const FIXTURE = path.join(__dirname, 'fixtures', 'saved-before-restructure.json');

function byIri<T extends { iri: string }>(items: readonly T[]): T[] {
	return [...items].sort((a, b) => (a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0));
}

function savedWorkflow(replacements: Record<string, string>): WorkflowJson {
	let text = fs.readFileSync(FIXTURE, 'utf8');
	for (const [placeholder, value] of Object.entries(replacements))
		text = text.split(placeholder).join(value);
	const saved = JSON.parse(text) as Omit<WorkflowJson, 'id' | 'active'>;
	return { ...saved, id: newWorkflowId(), active: false };
}

describeIfPackageBuilt(
	pkg,
	'ArchiveOrganization',
	'ArchiveAiMetadata',
)('workflows saved before the restructure', () => {
	let sandbox: Sandbox;

	beforeAll(async () => {
		sandbox = await startSandbox({ rows: 60, seed: 11 });
	});

	afterAll(async () => {
		await sandbox?.close();
	});

	describe.each(selectedN8nVersions())('n8n %s', (version) => {
		let n8n: N8nInstance;
		let run: RunExecutionData;

		beforeAll(async () => {
			const org = { id: newCredentialId(), name: 'Archive Organization (saved)' };
			const ai = { id: newCredentialId(), name: 'Archive AI Metadata (saved)' };
			n8n = await N8nInstance.create({ version, ...pkg });
			await n8n.importCredentials([
				orgCredentialImport(org, sandbox),
				aiCredentialImport(ai, sandbox),
			]);
			const workflow = savedWorkflow({
				__ORG_CREDENTIAL_ID__: org.id,
				__AI_CREDENTIAL_ID__: ai.id,
				__CONTENT_PARTNER_ID__: byIri(sandbox.data.org.contentPartners)[3].id,
			});
			await n8n.importWorkflow(workflow);
			run = (await n8n.execute(workflow.id)).run.data;
		});

		afterAll(async () => {
			await n8n?.dispose();
		});

		it('an Organization node with every parameter at its default lists the first 50 organizations', () => {
			const expected = byIri(sandbox.data.org.organizations)
				.slice(0, 50)
				.map((each) => each.id);

			expect(nodeJson(run, 'Organizations (all defaults)').map((each) => each.id)).toEqual(
				expected,
			);
		});

		it('"getMany" left at its default lists persons up to the saved limit', () => {
			const expected = byIri(sandbox.data.org.persons)
				.slice(0, 5)
				.map((each) => each.iri);

			expect(nodeJson(run, 'Persons').map((each) => each.iri)).toEqual(expected);
		});

		it('"getMany" saved explicitly returns all content partners across pages', () => {
			const expected = byIri(sandbox.data.org.contentPartners).map((each) => each.id);

			expect(expected.length).toBeGreaterThan(40);
			expect(nodeJson(run, 'All Content Partners').map((each) => each.id)).toEqual(expected);
		});

		it('"get" finds the content partner by id', () => {
			const partner = byIri(sandbox.data.org.contentPartners)[3];

			expect(nodeJson(run, 'Content Partner by ID')).toEqual([
				expect.objectContaining({ id: partner.id, iri: partner.iri }),
			]);
		});

		it('an AI Metadata node with every parameter at its default lists 50 face tasks', () => {
			const known = new Set(sandbox.data.ai.rows('face_tasks').map((row) => row.id));
			const rows = nodeJson(run, 'Face Tasks (all defaults)');

			expect(rows).toHaveLength(50);
			expect(rows.every((row) => known.has(row.id as string))).toBe(true);
		});

		it('counts speech tasks', () => {
			expect(nodeJson(run, 'Count Speech Tasks')).toEqual([
				{ view: 'speech_tasks', count: sandbox.data.ai.rows('speech_tasks').length },
			]);
		});
	});
});
