import { tokenEndpoint } from '../../../credentials/common/accessToken';
import { withoutUserinfo } from '../../../nodes/shared/http/redact';
import { INSECURE_URL_PATTERN } from '../../../credentials/common/insecureUrl';
import { findNetworkCode } from '../../../nodes/shared/http/networkErrors';
import { redactAndClip, redactSecrets } from '../../../nodes/shared/http/redact';
import {
	readWebhookHeaders,
	v1Signatures,
} from '../../../nodes/ArchiveSipStatusTrigger/verify/signature';

/**
 * Text on the error and URL paths comes from servers and from credential fields; handling it must stay linear in
 * its length whatever it holds. Each check times an input of n and of 4n characters (best of three, after a warm-up)
 * and asks that 4n take less than 8 times as long as n, plus 25 ms: linear work takes about 4 times as long,
 * quadratic work 16 times (the regular expressions replaced here: 80 ms and 1.25 s for the network code at 5,000
 * and 20,000 characters, 54 ms and 0.85 s for the Token URL). A pair is measured again, up to five times, when a
 * busy machine (two jest workers on CI's two cores) stalls the larger run: quadratic work fails every pair, a stall
 * does not recur on every one.
 */
function millisecondsFor(run: () => unknown): number {
	let best = Infinity;
	for (let attempt = 0; attempt < 3; attempt++) {
		const started = process.hrtime.bigint();
		run();
		best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e6);
	}
	return best;
}

function expectLinear(handle: (text: string) => unknown, input: (n: number) => string, n: number) {
	const smallInput = input(n);
	const largeInput = input(4 * n);
	handle(smallInput);
	const pairs: Array<{ small: number; large: number }> = [];
	for (let round = 0; round < 5; round++) {
		const small = millisecondsFor(() => handle(smallInput));
		const large = millisecondsFor(() => handle(largeInput));
		pairs.push({ small, large });
		if (large < 8 * small + 25) return;
	}
	throw new Error(
		`4n took 8 times as long as n (plus 25 ms) in every one of 5 pairs: ${pairs
			.map(({ small, large }) => `${small.toFixed(1)} ms / ${large.toFixed(1)} ms`)
			.join(', ')}`,
	);
}

const repeatTo = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length));

describe('network codes in error text', () => {
	const OLD_PATTERN = /\b(E[A-Z]{3,}[A-Z_]*)\b/;

	it.each([
		'connect ECONNREFUSED 127.0.0.1:9',
		'read ECONNRESET',
		'ERR_SOCKET_CONNECTION_TIMEOUT after 10 ms',
		'getaddrinfo EAI_AGAIN example.org',
		'EPIPE',
		'E_NOPE and EABC1 and xEAAAA then EAAA_B',
		'EAB EABC',
		'socket hang up',
		'',
		'ÉCONNRESET ECONNRESETé',
	])('finds what the regular expression it replaces found in %j', (text) => {
		expect(findNetworkCode(text)).toBe(OLD_PATTERN.exec(text)?.[1]);
	});

	it.each([
		['capitals ending in a digit', (n: number) => `${'E'.repeat(n)}1`],
		['capitals and underscores', (n: number) => `${repeatTo('E_', n)}a`],
		['many short words', (n: number) => repeatTo('EAB ', n)],
	])('stays linear on %s', (_case, input) => {
		expectLinear(findNetworkCode, input, 5_000);
	});
});

describe('Token URL handling', () => {
	it('removes trailing slashes as before', () => {
		expect(tokenEndpoint('https://auth.example.org///')).toBe('https://auth.example.org/token');
		expect(tokenEndpoint('https://auth.example.org/base')).toBe(
			'https://auth.example.org/base/token',
		);
	});

	it.each([
		['slashes then a letter', (n: number) => `https://a${'/'.repeat(n)}a`],
		['slashes at the end', (n: number) => `https://a${'/'.repeat(n)}`],
	])('tokenEndpoint stays linear on %s', (_case, input) => {
		expectLinear(tokenEndpoint, input, 8_000);
	});

	it.each([
		['slashes', (n: number) => '/'.repeat(n)],
		['a URL that does not parse', (n: number) => `x${repeatTo('//a', n)}`],
	])('withoutUserinfo stays linear on %s', (_case, input) => {
		expectLinear(withoutUserinfo, input, 25_000);
	});
});

describe('the plain-http notice of the credential forms', () => {
	// n8n's editor tests each typed URL against the pattern (a _cnd regex display condition).
	const insecure = new RegExp(INSECURE_URL_PATTERN);

	it.each([
		['leading spaces', (n: number) => `${' '.repeat(n)}x`],
		['a long loopback-like host', (n: number) => `http://127${repeatTo('.1', n)}`],
		['a long port', (n: number) => `http://localhost:${'1'.repeat(n)}x`],
		['a long host', (n: number) => `http://${'a'.repeat(n)}`],
	])('stays linear on %s', (_case, input) => {
		expectLinear((text) => insecure.test(text), input, 25_000);
	});
});

describe('redaction', () => {
	const inputs: Array<[string, (n: number) => string]> = [
		['one long word', (n) => 'a'.repeat(n)],
		['capitals ending in a digit', (n) => `${'E'.repeat(n)}1`],
		['secret key names', (n) => repeatTo('token', n)],
		['secret keys without values', (n) => repeatTo('token ', n)],
		['a key and a long gap', (n) => `token${' '.repeat(n)}x`],
		['a key, a separator and a long gap', (n) => `"password":${' '.repeat(n)}`],
		['keys and separators', (n) => repeatTo('jwtauth=', n)],
		['a quoted value never closed', (n) => `"token": "${repeatTo('a\\', n)}`],
		['a value of backslashes', (n) => `{"token":"${'\\'.repeat(n)}"}`],
		['schemes', (n) => repeatTo('Bearer ', n)],
		['a scheme and a long gap', (n) => `Bearer${' '.repeat(n)}`],
		['percent signs', (n) => repeatTo('%25', n)],
		['encoded quotes never closed', (n) => `%22token%22%3A%22${repeatTo('%2522', n)}`],
		['keys and escapes', (n) => repeatTo('token=%', n)],
		['escaped JSON', (n) => `\\"token\\":\\"${repeatTo('a\\', n)}`],
	];

	it.each(inputs)('redactSecrets stays linear on %s', (_case, input) => {
		expectLinear((text) => redactSecrets(text, ['live-token', 'pass word']), input, 25_000);
	});

	it.each([
		['a secret that almost matches everywhere', 'a'.repeat(64) + 'b', (n: number) => 'a'.repeat(n)],
		['a periodic secret', `${'ab'.repeat(32)}c`, (n: number) => repeatTo('ab', n)],
		['a secret found everywhere', 'ab', (n: number) => repeatTo('ab', n)],
	])('replacing known secrets stays linear with %s', (_case, secret, input) => {
		expectLinear((text) => redactSecrets(text, [secret]), input, 25_000);
		expectLinear((text) => redactAndClip(text, [secret], 500), input, 25_000);
	});

	it('redactSecrets handles 100,000 characters of each input', () => {
		for (const [, input] of inputs) {
			expect(typeof redactSecrets(input(100_000), ['live-token'])).toBe('string');
		}
	});
});

describe('webhook header parsing of the SIP Status Trigger', () => {
	const LIMIT = 4096;
	const others = { 'webhook-id': 'msg_1', 'webhook-timestamp': '1758548009' };
	// One parse of 4 KiB takes microseconds, far below the 25 ms allowance: each run parses the header 500 times, so
	// that a run of the largest input takes about 10 ms and quadratic work shows above the allowance.
	const RUNS = 500;
	const parse = (signature: string | string[]) => {
		let read: ReturnType<typeof readWebhookHeaders> | undefined;
		for (let run = 0; run < RUNS; run++)
			read = readWebhookHeaders({ ...others, 'webhook-signature': signature });
		return read;
	};
	const exactly = (unit: string, n: number) => repeatTo(unit, n).slice(0, n);
	const inputs: Array<[string, (n: number) => string]> = [
		['spaces', (n) => ' '.repeat(n)],
		['spaces then one entry', (n) => `${' '.repeat(n - 1)}x`],
		['commas', (n) => ','.repeat(n)],
		['v1, repeated as one entry', (n) => exactly('v1,', n)],
		['v1, entries', (n) => exactly('v1, ', n)],
		['commas and spaces', (n) => exactly(', ', n)],
		['tabs and line breaks', (n) => exactly('\t\r\n', n)],
	];

	it.each(inputs)('stays linear on %s up to the 4 KiB it accepts', (_case, input) => {
		// The largest input is parsed, not refused for its size.
		expect(parse(input(LIMIT))).not.toEqual({
			ok: false,
			reason: `webhook-signature header is longer than ${LIMIT} bytes`,
		});
		expectLinear(parse, input, LIMIT / 4);
	});

	it.each(inputs)(
		'refuses %s just above 4 KiB before parsing them, in linear time',
		(_case, input) => {
			expect(parse(input(LIMIT + 4))).toEqual({
				ok: false,
				reason: `webhook-signature header is longer than ${LIMIT} bytes`,
			});
			expectLinear(parse, input, LIMIT / 4 + 1);
		},
	);

	it('finds the v1 signatures among entries of commas in linear time', () => {
		// The trailing commas a comma-joined duplicate leaves are dropped by a loop (a /,+$/ is quadratic here).
		const signatures = (entry: string) => {
			for (let run = 0; run < RUNS; run++) v1Signatures([entry]);
		};
		expectLinear(signatures, (n) => `v1,${','.repeat(n - 4)}a`, LIMIT / 4);
	});

	it('stays linear on the header sent as many repeated lines', () => {
		// Node hands repeated header lines over as an array: one `v1,` line per 4 bytes (3 and a separator).
		const lines = (text: string) => parse(text.split('\n'));
		expectLinear(lines, (n) => Array.from({ length: n / 4 }, () => 'v1,').join('\n'), LIMIT / 4);
	});
});
