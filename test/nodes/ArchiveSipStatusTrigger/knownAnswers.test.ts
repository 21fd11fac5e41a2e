import { freezeClock, postRaw } from '../../../dev/harness/webhook';
import { KNOWN_ANSWER_VECTORS } from '../../../dev/emulators/webhook/fixtures';
import { errorOf, onlyItem, startTrigger, useTriggerHarness } from './triggerSetup';

useTriggerHarness();

describe('known-answer vectors (documented signatures), clock frozen at each timestamp', () => {
	it.each(KNOWN_ANSWER_VECTORS.map((vector, index) => [index + 1, vector] as const))(
		'vector %i verifies over the exact bytes',
		async (_index, vector) => {
			freezeClock(vector.timestamp * 1000);
			const trigger = await startTrigger({ credentials: { signingSecret: vector.secret } });
			const answer = await postRaw(trigger.url, vector.body, {
				'content-type': 'application/json',
				'webhook-id': vector.id,
				'webhook-timestamp': String(vector.timestamp),
				'webhook-signature': vector.signature,
			});
			if (vector.body.includes('sip.archived')) {
				expect(answer.status).toBe(204);
				expect(onlyItem(trigger).json.webhook_id).toBe(vector.id);
			} else {
				// The signature passed (no 401); these bodies are not SIP status events.
				expect(answer.status).toBe(400);
				expect(errorOf(answer)).toBe('type must be a non-empty string');
				expect(trigger.runs()).toHaveLength(0);
			}
		},
	);

	it('verifies vector 1 with its secret given without the whsec_ prefix', async () => {
		const vector = KNOWN_ANSWER_VECTORS[0];
		freezeClock(vector.timestamp * 1000);
		const trigger = await startTrigger({
			credentials: { signingSecret: vector.secret.slice('whsec_'.length) },
		});
		const answer = await postRaw(trigger.url, vector.body, {
			'content-type': 'application/json',
			'webhook-id': vector.id,
			'webhook-timestamp': String(vector.timestamp),
			'webhook-signature': vector.signature,
		});
		expect(answer.status).toBe(204);
		expect(trigger.runs()).toHaveLength(1);
	});

	it('rejects vector 1 when one byte of the body changes', async () => {
		const vector = KNOWN_ANSWER_VECTORS[0];
		freezeClock(vector.timestamp * 1000);
		const trigger = await startTrigger({ credentials: { signingSecret: vector.secret } });
		const answer = await postRaw(trigger.url, vector.body.replace('"pid": ', '"pid":'), {
			'webhook-id': vector.id,
			'webhook-timestamp': String(vector.timestamp),
			'webhook-signature': vector.signature,
		});
		expect(answer.status).toBe(401);
	});
});
