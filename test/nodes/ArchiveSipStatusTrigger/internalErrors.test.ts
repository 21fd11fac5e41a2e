import {
	postRaw,
	recordedLogs,
	startWebhookHarness,
	type HttpAnswer,
} from '../../../dev/harness/webhook';
import { ArchiveSipStatusTrigger } from '../../../nodes/ArchiveSipStatusTrigger/ArchiveSipStatusTrigger.node';
import {
	CREDENTIAL_TYPE,
	NODE_TYPE_NAME,
	sign,
	signedHeaders,
	sipEventBody,
} from '../../../dev/emulators/webhook/fixtures';
import { generateSecret } from '../../../dev/emulators/webhook/sender';
import {
	NOW_SECONDS,
	SECRET,
	deliver,
	nextId,
	startTrigger,
	useTriggerHarness,
} from './triggerSetup';

useTriggerHarness();

describe('secrets and internal errors', () => {
	it('answers 500 with a generic body when no secret is usable, and never echoes it', async () => {
		const badSecret = 'v1,c2VjcmV0LXRoYXQtaXMtYS1zaWduYXR1cmU=';
		const trigger = await startTrigger({ credentials: { signingSecret: badSecret } });
		const answer = await deliver(trigger, sipEventBody());
		expect(answer.status).toBe(500);
		expect(JSON.parse(answer.body)).toEqual({ error: 'internal error' });
		expect(JSON.stringify(recordedLogs)).not.toContain('c2VjcmV0LXRoYXQtaXMtYS1zaWduYXR1cmU');
		expect(
			recordedLogs.some(
				(entry) => entry.level === 'error' && entry.message.includes('Signing Secret'),
			),
		).toBe(true);
	});

	it('refuses a 1-byte key at delivery: 500 (never 410) and a log line naming the minimum, even for a correct signature', async () => {
		const tinySecret = 'whsec_QQ==';
		const trigger = await startTrigger({ credentials: { signingSecret: tinySecret } });
		const body = sipEventBody();
		const id = nextId();
		const signature = sign(tinySecret, id, NOW_SECONDS, body);
		const answer = await postRaw(trigger.url, body, {
			'webhook-id': id,
			'webhook-timestamp': String(NOW_SECONDS),
			'webhook-signature': signature,
		});
		expect(answer.status).toBe(500);
		expect(JSON.parse(answer.body)).toEqual({ error: 'internal error' });
		expect(trigger.runs()).toHaveLength(0);
		expect(recordedLogs.at(-1)).toEqual({
			level: 'error',
			message:
				'Archive SIP Status Trigger could not handle a delivery: No usable signing secret: Signing Secret decodes to 1 bytes, fewer than the minimum of 16 (Standard Webhooks secrets hold 24 to 64 random bytes)',
			metadata: undefined,
		});
	});

	it('never puts a secret or a signature in any answer or log', async () => {
		const rotated = generateSecret();
		const trigger = await startTrigger({
			credentials: { signingSecret: SECRET, additionalSecrets: `${rotated}\nnot-a-secret` },
			parameters: { options: { eventsPerMinute: 3 } },
		});
		const body = sipEventBody();
		const signatures: string[] = [];
		const answers: HttpAnswer[] = [];
		const send = async (headers: Record<string, string>, payload = body) => {
			signatures.push(headers['webhook-signature']);
			answers.push(await postRaw(trigger.url, payload, headers));
		};
		await send(signedHeaders(SECRET, 'msg_s1', NOW_SECONDS, body));
		await send(signedHeaders(rotated, 'msg_s2', NOW_SECONDS - 900, body));
		await send(signedHeaders(generateSecret(), 'msg_s3', NOW_SECONDS, body));
		await send(signedHeaders(SECRET, 'msg_s4', NOW_SECONDS, '{"type": 1}'), '{"type": 1}');
		await send(signedHeaders(SECRET, 'msg_s5', NOW_SECONDS, body));
		await send(signedHeaders(SECRET, 'msg_s6', NOW_SECONDS, body));

		expect(answers.map((answer) => answer.status)).toEqual([204, 401, 401, 400, 204, 429]);
		const everything = JSON.stringify([answers, recordedLogs, trigger.calls]);
		for (const secret of [SECRET, rotated]) {
			expect(everything).not.toContain(secret.slice('whsec_'.length));
		}
		expect(everything).not.toContain('not-a-secret');
		for (const signature of signatures) expect(everything).not.toContain(signature.slice(3));
		expect(answers.every((answer) => answer.status !== 410)).toBe(true);
	});
});

describe('a foreign failure (n8n cannot read the credential, e.g. its database is down)', () => {
	it('answers 500 with a generic body, logs no detail of the foreign error and starts nothing', async () => {
		const trigger = await startWebhookHarness(new ArchiveSipStatusTrigger(), {
			nodeTypeName: NODE_TYPE_NAME,
			workflowId: 'failing-credential-workflow',
			credentials: { [CREDENTIAL_TYPE]: { signingSecret: SECRET } },
			credentialRead: async () => {
				throw new Error('connect ECONNREFUSED postgres://n8n:hunter2@127.0.0.1:5432');
			},
		});
		try {
			const answer = await deliver(trigger, sipEventBody());
			expect(answer.status).toBe(500);
			expect(JSON.parse(answer.body)).toEqual({ error: 'internal error' });
			expect(trigger.runs()).toHaveLength(0);
			expect(JSON.stringify(recordedLogs)).not.toContain('hunter2');
			expect(recordedLogs.at(-1)).toMatchObject({
				level: 'error',
				message: expect.stringContaining('unexpected Error'),
			});
		} finally {
			await trigger.close();
		}
	});
});
