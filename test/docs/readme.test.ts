import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

import { ArchiveSipStatusTrigger } from '../../nodes/ArchiveSipStatusTrigger/ArchiveSipStatusTrigger.node';
import { startWebhookHarness, type WebhookHarness } from '../../dev/harness/webhook';
import { CREDENTIAL_TYPE, NODE_TYPE_NAME } from '../../dev/emulators/webhook/fixtures';
import { generateSecret } from '../../dev/emulators/webhook/sender';

// README is what a builder reads first: it stays short, and its copy-paste recipe for a signed test event works
// as written (bash, openssl, curl and coreutils, against the trigger's Test URL over real HTTP).

const README = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
const MAX_WORDS = 2000;

/** The shell block of the README section with this heading. */
function shellBlockUnder(heading: string): string {
	const start = README.indexOf(`\n${heading}\n`);
	expect(start).toBeGreaterThan(-1);
	const block = /```sh\n([\s\S]*?)```/.exec(README.slice(start));
	expect(block).not.toBeNull();
	return block![1];
}

/** Replaces the value of one `NAME='…'` line of the recipe, as a user pastes their own. */
function withValue(script: string, name: string, value: string): string {
	const line = new RegExp(`^${name}='[^']*'`, 'm');
	expect(script).toMatch(line);
	return script.replace(line, `${name}='${value}'`);
}

const RECIPE = shellBlockUnder('### Testing the trigger');
const README_SECRET = /^SECRET='([^']*)'/m.exec(RECIPE)?.[1] ?? '';

describe('README', () => {
	it(`has at most ${MAX_WORDS} words`, () => {
		expect(README.split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(MAX_WORDS);
	});
});

describe("README's signed test event", () => {
	let harness: WebhookHarness | undefined;
	afterEach(async () => {
		await harness?.close();
		harness = undefined;
	});

	let recipeRuns = 0;
	async function runRecipe(credentialSecret: string, pastedSecret: string) {
		harness = await startWebhookHarness(new ArchiveSipStatusTrigger(), {
			nodeTypeName: NODE_TYPE_NAME,
			workflowId: `readme-recipe-${++recipeRuns}`,
			credentials: { [CREDENTIAL_TYPE]: { signingSecret: credentialSecret } },
			mode: 'manual',
		});
		const script = withValue(withValue(RECIPE, 'SECRET', pastedSecret), 'URL', harness.url);
		const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
			timeout: 20_000,
		});
		return stdout;
	}

	it('is accepted as written with the secret it shows', async () => {
		const stdout = await runRecipe(README_SECRET, README_SECRET);

		expect(stdout).toMatch(/^HTTP\/1\.1 204/);
		const runs = harness!.runs();
		expect(runs).toHaveLength(1);
		expect(runs[0][0][0].json).toMatchObject({
			type: 'service.sip.archived',
			correlation_id: 'test-1',
			outcome: 'success',
			pid: 'test-pid',
		});
		expect(runs[0][0][0].json.webhook_id).toMatch(/^msg_test_\d+_\d+$/);
	});

	it('signs with the secret pasted into it', async () => {
		const secret = generateSecret(24);
		expect((await runRecipe(secret, secret)).split('\n')[0]).toMatch(/^HTTP\/1\.1 204/);

		await harness!.close();
		// At the Test URL a wrong secret fails the test run with the reason (n8n answers 500).
		const refused = await runRecipe(secret, generateSecret(24));
		expect(refused).toMatch(/^HTTP\/1\.1 500/);
		expect(harness!.runs()).toHaveLength(0);
		expect((harness!.calls.at(-1)?.error as Error | undefined)?.message).toMatch(
			/^The test event was refused: its signature matches none of the signing secrets/,
		);
	});
});
