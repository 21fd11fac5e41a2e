import type { INodeParameters } from 'n8n-workflow';

import { ArchiveAiMetadataTrigger } from '../../../../nodes/ArchiveAiMetadata/ArchiveAiMetadataTrigger.node';
import type { TestCredentialsHelper } from '../../../../dev/harness/credentialsHelper';
import { PollHarness } from '../../../../dev/harness/poll';
import { aiCredentials } from '../../../../dev/harness/sandboxCredentials';
import { useSandbox } from '../../../../dev/harness/sandboxFixture';

// A poll has no items, so the trigger decrypts its credential once per poll and hands it to n8n with every request.
// n8n would otherwise read and decrypt it for each page (in n8n 2.x with a fresh expression isolate each time). A
// token refreshed on the way is written into that copy, so the later pages of the poll use it.

const sandbox = useSandbox({ rows: 200 });
const VIEW = 'face_tasks';
const TYPE = 'archiveAiMetadataApi';

function triggerWith(credentials: TestCredentialsHelper, options: INodeParameters): PollHarness {
	return new PollHarness({
		nodeType: new ArchiveAiMetadataTrigger(),
		parameters: { view: VIEW, statuses: [], options },
		credentials,
	});
}

describe('Archive AI Metadata Trigger: its credential, once per poll', () => {
	it('is decrypted once for a poll of many pages', async () => {
		const credentials = aiCredentials(sandbox());
		const trigger = triggerWith(credentials, { pageSize: 10 });
		expect((await trigger.poll()).items).toBeNull();
		const rows = sandbox()
			.data.ai.touch(VIEW, 45)
			.map((row) => row.task_id);
		const requestsBefore = sandbox().counters.get().ai.requests.graphql ?? 0;
		const decryptionsBefore = credentials.decryptions.length;

		const poll = await trigger.poll();
		expect(poll.error).toBeUndefined();
		expect((poll.items?.[0] ?? []).map((item) => item.json.task_id)).toEqual(rows);
		expect((sandbox().counters.get().ai.requests.graphql ?? 0) - requestsBefore).toBeGreaterThan(5);
		expect(credentials.decryptions.slice(decryptionsBefore)).toEqual([TYPE]);
	});

	it('takes a token refreshed during the poll for its later pages, and n8n saves it', async () => {
		const credentials = aiCredentials(sandbox());
		const trigger = triggerWith(credentials, { pageSize: 10, maxConcurrency: 1 });
		expect((await trigger.poll()).items).toBeNull();
		const rows = sandbox()
			.data.ai.touch(VIEW, 30)
			.map((row) => row.task_id);
		const oldToken = credentials.store.get(TYPE)?.accessToken;
		expect(oldToken).toEqual(expect.any(String));
		// The server forgets every token: the poll's first request gets a 401.
		sandbox().revokeTokens();
		const tokensBefore = sandbox().counters.get().ai.tokensIssued;

		const poll = await trigger.poll();
		expect(poll.error).toBeUndefined();
		expect((poll.items?.[0] ?? []).map((item) => item.json.task_id)).toEqual(rows);
		// One refresh for the whole poll: every later page went out with the new token.
		expect(sandbox().counters.get().ai.tokensIssued - tokensBefore).toBe(1);
		expect(credentials.preAuthenticationCalls.filter((call) => call.expired)).toHaveLength(1);
		const newToken = credentials.store.get(TYPE)?.accessToken;
		expect(newToken).toEqual(expect.any(String));
		expect(newToken).not.toBe(oldToken);
		// The first answer, and the one to n8n's own send of the old token before it refreshes.
		expect(sandbox().counters.get().ai.statuses['401']).toBe(2);
	});
});
