import * as path from 'node:path';

import { ArchiveAiMetadataApi } from '../../credentials/ArchiveAiMetadataApi.credentials';
import { ArchiveOrganizationApi } from '../../credentials/ArchiveOrganizationApi.credentials';
import { ArchiveSipWebhookApi } from '../../credentials/ArchiveSipWebhookApi.credentials';
import { exampleFiles, readExample } from '../../scripts/examples/files';
import { exampleWorkflows } from '../../scripts/examples/workflows';

// examples/*.json are what users import: they must be what scripts/examples/workflows.ts builds (`npm run examples`
// rewrites them), and hold what n8n needs to link a user's credentials and to say what to fill in. That they import
// and run in n8n 1.123.81 and 2.40.7 is test/e2e/examples.test.ts.

/** n8n's name for a new credential of a type: its display name without "API", then "account". */
function defaultCredentialName(displayName: string): string {
	return `${displayName
		.split(' ')
		.filter((word) => !['API', 'OAuth1', 'OAuth2'].includes(word))
		.join(' ')} account`;
}

const ourCredentials = [
	new ArchiveAiMetadataApi(),
	new ArchiveOrganizationApi(),
	new ArchiveSipWebhookApi(),
];

describe('examples/*.json', () => {
	const built = exampleWorkflows();
	const files = exampleFiles();

	it('are exactly the examples scripts/examples/workflows.ts builds (run `npm run examples`)', () => {
		expect(files.map((file) => path.basename(file)).sort()).toEqual(Object.keys(built).sort());
		for (const file of files) expect(readExample(file)).toEqual(built[path.basename(file)]);
	});

	it.each(Object.keys(built))(
		'%s names our credentials as n8n names a new one of their type',
		(name) => {
			const workflow = built[name];
			const refs = workflow.nodes.flatMap((each) => Object.entries(each.credentials ?? {}));
			expect(refs.length).toBeGreaterThan(0);
			for (const [type, ref] of refs) {
				const ours = ourCredentials.find((each) => each.name === type);
				if (ours) expect(ref.name).toBe(defaultCredentialName(ours.displayName));
				else expect([type, ref.name]).toEqual(['openAiApi', 'OpenAi account']);
			}
		},
	);

	it.each(Object.keys(built))('%s has a sticky note saying what to fill in', (name) => {
		const notes = built[name].nodes.filter((each) => each.type === 'n8n-nodes-base.stickyNote');
		expect(notes).toHaveLength(1);
		expect(String(notes[0].parameters.content)).toContain('Fill in:');
	});

	it('names credentials "Archive AI Metadata account", "Archive Organization account", "Archive SIP Webhook account"', () => {
		expect(ourCredentials.map((each) => defaultCredentialName(each.displayName))).toEqual([
			'Archive AI Metadata account',
			'Archive Organization account',
			'Archive SIP Webhook account',
		]);
	});
});
