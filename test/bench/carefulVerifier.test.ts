import { carefulVerifierCode } from '../../dev/bench/lib/carefulVerifier';
import {
	buildSuccessEvent,
	generateSecret,
	newMessageId,
	serializeEvent,
	signatureHeader,
} from '../../dev/emulators/webhook/sender';

/**
 * The careful user's Code node of the trigger bench, run outside n8n the way n8n's Code node runs it (an async
 * function body with `$input`, `require` and `this.helpers`): it must accept a genuine Standard Webhooks delivery
 * and refuse every bad one, or the bench would compare ours with a workflow that does not verify.
 */

const TOLERANCE_SECONDS = 15;
const secret = generateSecret(32);

type Json = Record<string, unknown>;

interface Delivery {
	headers: Record<string, string>;
	body: string;
}

function delivery({
	secrets = [secret],
	ageSeconds = 0,
	body = serializeEvent(buildSuccessEvent()),
}: { secrets?: string[]; ageSeconds?: number; body?: string } = {}): Delivery {
	const id = newMessageId();
	const timestamp = Math.floor(Date.now() / 1000) - ageSeconds;
	return {
		headers: {
			'content-type': 'application/json',
			'webhook-id': id,
			'webhook-timestamp': String(timestamp),
			'webhook-signature': signatureHeader(secrets, id, timestamp, body),
		},
		body,
	};
}

type CodeNodeBody = (this: unknown, ...values: unknown[]) => Promise<Array<{ json: Json }>>;
const AsyncFunction = (async () => undefined).constructor as new (
	...args: string[]
) => CodeNodeBody;

async function runCodeNode({ headers, body }: Delivery): Promise<Json> {
	const run = new AsyncFunction(
		'$input',
		'require',
		carefulVerifierCode(secret, TOLERANCE_SECONDS),
	);
	const context = {
		helpers: {
			getBinaryDataBuffer: async (itemIndex: number, property: string) => {
				expect([itemIndex, property]).toEqual([0, 'data']);
				return Buffer.from(body, 'utf8');
			},
		},
	};
	const $input = { first: () => ({ json: { headers, body: JSON.parse(body) as Json } }) };
	const items = await run.call(context, $input, require);
	expect(items).toHaveLength(1);
	return items[0].json;
}

describe("trigger bench: the careful user's signature check", () => {
	it('accepts a genuine delivery and emits the event with verified: true', async () => {
		const genuine = delivery();
		const json = await runCodeNode(genuine);
		expect(json).toMatchObject({ ...(JSON.parse(genuine.body) as Json), verified: true });
	});

	it('accepts a delivery signed with several secrets (rotation), one of them ours', async () => {
		const json = await runCodeNode(delivery({ secrets: [generateSecret(32), secret] }));
		expect(json.verified).toBe(true);
	});

	it('refuses a wrong signature, a changed body, a stale or future timestamp and missing headers', async () => {
		const tampered = delivery();
		const changedBody = { ...tampered, body: tampered.body.replace('success', 'failure') };
		const withoutSignature = delivery();
		delete withoutSignature.headers['webhook-signature'];
		const cases: Delivery[] = [
			delivery({ secrets: [generateSecret(32)] }),
			changedBody,
			delivery({ ageSeconds: TOLERANCE_SECONDS + 5 }),
			delivery({ ageSeconds: -(TOLERANCE_SECONDS + 5) }),
			withoutSignature,
			{ ...delivery(), headers: { ...delivery().headers, 'webhook-timestamp': 'soon' } },
		];
		for (const each of cases) expect(await runCodeNode(each)).toEqual({ verified: false });
	});
});
