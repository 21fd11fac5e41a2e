import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

import type { IDataObject, INodeParameters, INodeType } from 'n8n-workflow';

import { ArchiveAiMetadata } from '../../../nodes/ArchiveAiMetadata/ArchiveAiMetadata.node';
import { classifyAddress } from '../../../nodes/ArchiveAiMetadata/api/addresses';
import {
	checkDestination,
	checkPeer,
	readDownloadPolicy,
} from '../../../nodes/ArchiveAiMetadata/api/downloadPolicy';
import type { DownloadPolicy } from '../../../nodes/ArchiveAiMetadata/api/downloadPolicy';
import {
	looksLikeObjectPath,
	objectPathProblem,
} from '../../../nodes/ArchiveAiMetadata/api/presign';
import type { Sandbox } from '../../../dev/emulators';
import { everythingOf, runNode } from '../../../dev/harness/execute';
import type { TestOrigin } from '../../../dev/harness/testOrigin';
import { PRESIGN, startRewritingFront, succeededSpeechTaskId } from './downloadFront';
import { aiCredentials, resetState, withSandbox } from './helpers';
import { withEgressFilter } from './egressFilter';
import type { FakeAnswer, FakeEgressFilter } from './egressFilter';
import { installNetworkGuard } from './networkGuard';
import type { NetworkGuard } from './networkGuard';

/**
 * Where Download Files may connect. The node talks to `front`, which passes everything on to the emulator but
 * rewrites the links presignS3 returns (`linkFor`) and, when `pathFor` is set, the object paths the record query
 * returns. Links point at `files`, a loopback server that counts every TCP connection it accepts (so a refusal
 * is proven to have connected nowhere), or at addresses outside loopback, which the network guard refuses to
 * resolve or connect to and records.
 */
let sandbox: Sandbox;
let front: TestOrigin;
let files: { server: Server; port: number; connections: number; requests: string[] };
let linkFor: (original: string) => string;
let pathFor: ((original: string) => string) | undefined;
let serveFile: (res: ServerResponse) => void;
let guard: NetworkGuard;

async function startFiles(): Promise<typeof files> {
	const requests: string[] = [];
	const server = createServer((req, res) => {
		requests.push(req.url ?? '');
		serveFile(res);
	});
	const state = { server, port: 0, connections: 0, requests };
	server.on('connection', () => state.connections++);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	state.port = (server.address() as AddressInfo).port;
	return state;
}

beforeAll(async () => {
	sandbox = await withSandbox({ rows: 20, aiRawStorage: 'paths' });
	front = await startRewritingFront(sandbox, () => ({ link: linkFor, path: pathFor }));
	files = await startFiles();
});
afterAll(async () => {
	files.server.closeAllConnections();
	await Promise.all([
		sandbox.close(),
		front.close(),
		new Promise((resolve) => files.server.close(resolve)),
	]);
});
beforeEach(async () => {
	await resetState(sandbox);
	front.requests.length = 0;
	files.connections = 0;
	files.requests.length = 0;
	linkFor = (original) => `http://127.0.0.1:${files.port}${new URL(original).pathname}`;
	pathFor = undefined;
	serveFile = (res) => {
		res.writeHead(200, { 'content-type': 'text/plain' });
		res.end('transcript text');
	};
	guard = installNetworkGuard({
		'files.test': '127.0.0.1',
		'127.0.0.1.nip.io': '127.0.0.1',
		'rebind.test': '127.0.0.1',
		'internal.test': '10.0.0.5',
		'public.test': '93.184.216.34',
	});
});
afterEach(() => guard.restore());

const taskId = () => succeededSpeechTaskId(sandbox);

const presignRequests = () =>
	front.requests.filter((request) => request.body.toString('utf8').includes(PRESIGN)).length;

async function downloadTranscript(
	credentialFields: IDataObject,
	options: INodeParameters = {},
	nodeType: INodeType = new ArchiveAiMetadata(),
) {
	const credentials = aiCredentials(sandbox, {
		graphqlUrl: `${front.baseUrl}${new URL(sandbox.ai.graphqlUrl).pathname}`,
		allowPrivateAddresses: false,
		...credentialFields,
	});
	const parameters = {
		resource: 'speechTask',
		operation: 'downloadFiles',
		taskId: taskId(),
		files: ['transcript_txt'],
		options: { maxRetries: 0, ...options },
	};
	return await runNode({ nodeType, parameters, credentials });
}

const text = (result: Awaited<ReturnType<typeof downloadTranscript>>) =>
	Buffer.from(String(result.outputs[0]?.[0]?.binary?.transcript_txt?.data), 'base64').toString(
		'utf8',
	);

describe('address classification (every written form of a non-public address)', () => {
	const policy: DownloadPolicy = { allowedOrigins: [], allowPrivateAddresses: false };
	const kindOfLink = (link: string) => {
		const url = new URL(link);
		const checked = checkDestination(link, { ...policy, allowedOrigins: [url.origin] });
		return 'refusal' in checked ? checked.refusal : 'allowed';
	};

	it.each([
		['http://127.1:8080/', 'loopback'],
		['http://2130706433/', 'loopback'],
		['http://0x7f.1/', 'loopback'],
		['http://0177.0.0.1/', 'loopback'],
		['http://127.255.255.254/', 'loopback'],
		['http://[::1]/', 'loopback'],
		['http://[::ffff:127.0.0.1]/', 'loopback'],
		['http://[0:0:0:0:0:ffff:7f00:1]/', 'loopback'],
		['http://[::ffff:0:7f00:1]/', 'loopback'],
		['http://[64:ff9b:1::7f00:1]/', 'loopback'],
		['http://[64:ff9b:1::808:808]/', 'private'],
		['http://localhost./', 'loopback'],
		['http://LOCALHOST/', 'loopback'],
		['http://files.localhost/', 'loopback'],
		['http://0.0.0.0/', 'unspecified'],
		['http://0/', 'unspecified'],
		['http://[::]/', 'unspecified'],
		['https://10.0.0.5:8443/admin', 'private'],
		['http://172.16.0.1/', 'private'],
		['http://192.168.1.1/', 'private'],
		['http://100.64.0.1/', 'private'],
		['http://[::ffff:10.0.0.1]/', 'private'],
		['http://[64:ff9b::a00:5]/', 'private'],
		['http://[2002:a00:5::1]/', 'private'],
		['http://169.254.169.254/latest/meta-data/', 'cloud metadata'],
		['http://[::ffff:169.254.169.254]/', 'cloud metadata'],
		['http://[fd00:ec2::254]/', 'cloud metadata'],
		['http://169.254.1.1/', 'link-local'],
		['http://[fe80::1]/', 'link-local'],
		['http://[fd00::1]/', 'unique-local'],
		['http://[fc00::5]/', 'unique-local'],
		['http://224.0.0.1/', 'multicast'],
		['http://[ff02::1]/', 'multicast'],
		['http://240.0.0.1/', 'reserved'],
		['http://255.255.255.255/', 'reserved'],
	])('%s is refused as %s', (link, kind) => {
		expect(kindOfLink(link)).toMatch(
			new RegExp(` is an? ${kind} address; .*"Allow Private Addresses" is on$`),
		);
		expect(kindOfLink(link)).toContain(new URL(link).host);
	});

	it.each([
		'https://8.8.8.8/',
		'https://[2606:4700:4700::1111]/',
		'https://archive-files.s3.eu-west-1.amazonaws.com/',
		'https://172.32.0.1/',
		'https://[2001:4860::1]/',
	])('%s is allowed', (link) => {
		expect(kindOfLink(link)).toBe('allowed');
	});

	it.each([
		['10.0.0.5', 'private'],
		['169.254.169.254', 'cloud metadata'],
		['fd00::1', 'unique-local'],
		['::ffff:10.0.0.1', 'private'],
		['fe80::1%eth0', 'link-local'],
		['::ffff:0:a00:5', 'private'],
		['::ffff:0:7f00:1', 'loopback'],
		['64:ff9b:1::a9fe:a9fe', 'cloud metadata'],
		['64:ff9b::808:808', undefined],
		['127.0.0.1', 'loopback'],
		['::1', 'loopback'],
		['93.184.216.34', undefined],
	])('a socket address %s is %s', (address, kind) => {
		expect(classifyAddress(address)).toBe(kind);
		const refusal = checkPeer(new URL('https://internal.test/x'), address, policy);
		if (kind === undefined) expect(refusal).toBeUndefined();
		else
			expect(refusal?.refusal).toBe(
				`internal.test answered from ${address}, which is a ${kind} address; downloads from private, loopback, link-local and cloud metadata addresses are refused unless the credential's "Allow Private Addresses" is on`,
			);
		expect(
			checkPeer(new URL('https://x.test/'), address, { ...policy, allowPrivateAddresses: true }),
		).toBeUndefined();
	});
});

describe('Download Files: allowed origins', () => {
	it('refuses a presign answer pointing at another local port (default: the GraphQL origin only), connecting nowhere', async () => {
		const result = await downloadTranscript({ allowPrivateAddresses: true });
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(
			`Downloading transcript_txt: the download link points to http://127.0.0.1:${files.port}, which is not in the credential's "Allowed Download Origins" (${front.baseUrl}); add it there if the archive keeps its files at that address`,
		);
		expect(files.connections).toBe(0);
	});

	it('downloads from an origin the user listed', async () => {
		const result = await downloadTranscript({
			allowPrivateAddresses: true,
			allowedDownloadOrigins: `https://archive-files.example.org, http://127.0.0.1:${files.port}/`,
		});
		expect(result.error).toBeUndefined();
		expect(text(result)).toBe('transcript text');
		expect(files.requests).toHaveLength(1);
	});

	it('refuses another port and another scheme of a listed host', async () => {
		linkFor = (original) => `https://127.0.0.1:${files.port}${new URL(original).pathname}`;
		const otherScheme = await downloadTranscript({
			allowPrivateAddresses: true,
			allowedDownloadOrigins: `http://127.0.0.1:${files.port}`,
		});
		expect(otherScheme.error?.message).toContain(
			`the download link points to https://127.0.0.1:${files.port}, which is not in`,
		);
		linkFor = (original) => `http://127.0.0.1:${files.port}${new URL(original).pathname}`;
		const otherPort = await downloadTranscript({
			allowPrivateAddresses: true,
			allowedDownloadOrigins: `http://127.0.0.1:${files.port + 1}`,
		});
		expect(otherPort.error?.message).toContain(
			`the download link points to http://127.0.0.1:${files.port}, which is not in`,
		);
		expect(files.connections).toBe(0);
	});

	it('refuses a link whose origin is not listed without looking its name up', async () => {
		linkFor = () => `http://127.0.0.1.nip.io:${files.port}/x/transcript.txt`;
		const result = await downloadTranscript({ allowPrivateAddresses: true });
		expect(result.error?.message).toContain(
			`the download link points to http://127.0.0.1.nip.io:${files.port}, which is not in`,
		);
		expect(guard.lookups).not.toContain('127.0.0.1.nip.io');
		expect(files.connections).toBe(0);
	});

	it('refuses an allowed-origins entry that is not an origin, naming the credential field', async () => {
		const result = await downloadTranscript({
			allowedDownloadOrigins: 'https://files.example.org/bucket',
		});
		expect(result.error?.message).toBe(
			'Credential field "Allowed Download Origins": "https://files.example.org/bucket" is not an origin',
		);
		expect(presignRequests()).toBe(0);
	});

	it('does not repeat a password written into an allowed-origins entry', async () => {
		const result = await downloadTranscript({
			allowedDownloadOrigins: 'https://files:s3cr3t-pass@files.example.org',
		});
		expect(result.error?.message).toBe(
			'Credential field "Allowed Download Origins": "https://…@files.example.org" is not an origin',
		);
		expect(JSON.stringify(result.error)).not.toContain('s3cr3t-pass');
	});

	it('reads the policy from the credential', () => {
		const node = { name: 'n' } as never;
		expect(readDownloadPolicy(node, { graphqlUrl: 'https://api.example.org/v1/graphql' })).toEqual({
			allowedOrigins: ['https://api.example.org'],
			allowPrivateAddresses: false,
		});
		expect(
			readDownloadPolicy(node, {
				graphqlUrl: 'https://api.example.org/v1/graphql',
				allowedDownloadOrigins: 'HTTPS://Files.Example.org:443/,\nhttp://minio.lan:9000',
				allowPrivateAddresses: true,
			}),
		).toEqual({
			allowedOrigins: ['https://files.example.org', 'http://minio.lan:9000'],
			allowPrivateAddresses: true,
		});
	});
});

describe('Download Files: private addresses', () => {
	const loopbackForms = (port: number) => [
		`http://127.0.0.1:${port}`,
		`http://127.1:${port}`,
		`http://2130706433:${port}`,
		`http://0x7f.1:${port}`,
		`http://[::ffff:127.0.0.1]:${port}`,
		`http://localhost.:${port}`,
		`http://localhost:${port}`,
	];

	it.each([0, 1, 2, 3, 4, 5, 6])(
		'refuses loopback form #%i (allowed origin, private addresses off) before connecting',
		async (index) => {
			const base = loopbackForms(files.port)[index];
			linkFor = (original) => `${base}${new URL(original).pathname}`;
			const result = await downloadTranscript({ allowedDownloadOrigins: new URL(base).origin });
			expect(result.error?.name).toBe('NodeOperationError');
			expect(result.error?.message).toMatch(
				/^Downloading transcript_txt: .+ is a loopback address; downloads from private, loopback, link-local and cloud metadata addresses are refused unless the credential's "Allow Private Addresses" is on$/,
			);
			expect(result.error?.message).toContain(new URL(base).host);
			expect(files.connections).toBe(0);
		},
	);

	it.each([
		'https://10.0.0.5:8443',
		'http://169.254.169.254',
		'http://[fd00::1]',
		'http://[::ffff:10.0.0.1]',
		'http://0.0.0.0',
	])('refuses %s (allowed origin) without any connection attempt', async (base) => {
		linkFor = (original) => `${base}${new URL(original).pathname}`;
		const result = await downloadTranscript({ allowedDownloadOrigins: base });
		expect(result.error?.message).toMatch(
			/address; downloads from private, .*"Allow Private Addresses" is on$/,
		);
		expect(guard.attempts).toEqual([]);
	});

	it("refuses the emulator's own links when private addresses are off, and fetches nothing", async () => {
		linkFor = (original) => original;
		const result = await downloadTranscript({ graphqlUrl: sandbox.ai.graphqlUrl });
		expect(result.error?.message).toContain(
			`${new URL(sandbox.ai.baseUrl).host} is a loopback address`,
		);
		expect(sandbox.counters.get().ai.requests.files ?? 0).toBe(0);
	});

	it('checks the address a name answered from: a name resolving to loopback is refused before its answer is used', async () => {
		linkFor = (original) => `http://files.test:${files.port}${new URL(original).pathname}`;
		const origin = `http://files.test:${files.port}`;
		const refused = await downloadTranscript({ allowedDownloadOrigins: origin });
		expect(refused.error?.message).toBe(
			`Downloading transcript_txt: files.test:${files.port} answered from 127.0.0.1, which is a loopback address; downloads from private, loopback, link-local and cloud metadata addresses are refused unless the credential's "Allow Private Addresses" is on`,
		);
		expect(refused.outputs[0] ?? []).toEqual([]);
		const allowed = await downloadTranscript({
			allowedDownloadOrigins: origin,
			allowPrivateAddresses: true,
		});
		expect(allowed.error).toBeUndefined();
		expect(text(allowed)).toBe('transcript text');
	});
	it('refuses a wildcard-DNS name that resolves to loopback', async () => {
		// No special case for nip.io: the name resolves (here through the guard) to 127.0.0.1 like any other name.
		const origin = `http://127.0.0.1.nip.io:${files.port}`;
		linkFor = (original) => `${origin}${new URL(original).pathname}`;
		const refused = await downloadTranscript({ allowedDownloadOrigins: origin });
		expect(refused.error?.name).toBe('NodeOperationError');
		expect(refused.error?.message).toBe(
			`Downloading transcript_txt: 127.0.0.1.nip.io:${files.port} answered from 127.0.0.1, which is a loopback address; downloads from private, loopback, link-local and cloud metadata addresses are refused unless the credential's "Allow Private Addresses" is on`,
		);
		expect(guard.lookups).toContain('127.0.0.1.nip.io');
		// n8n 1.x lends no resolver: the request reaches the host, its answer reaches nothing.
		expect(files.requests).toHaveLength(1);
		expect(refused.outputs[0] ?? []).toEqual([]);
	});

	it('refuses a name whose answer hides the address it came from (a compressed body on n8n 1.x)', async () => {
		serveFile = (res) => {
			res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
			res.end(gzipSync(Buffer.from('transcript text')));
		};
		linkFor = (original) => `http://files.test:${files.port}${new URL(original).pathname}`;
		const origin = `http://files.test:${files.port}`;
		const refused = await downloadTranscript({ allowedDownloadOrigins: origin });
		expect(refused.error?.message).toBe(
			`Downloading transcript_txt: the address files.test:${files.port} answered from cannot be checked (as when a server compresses its answer), so it could be a private address; such downloads are refused unless the credential's "Allow Private Addresses" is on`,
		);
		expect(refused.outputs[0] ?? []).toEqual([]);
		const allowed = await downloadTranscript({
			allowedDownloadOrigins: origin,
			allowPrivateAddresses: true,
		});
		expect(allowed.error).toBeUndefined();
		expect(text(allowed)).toBe('transcript text');
	});
});

describe('Download Files: streaming within Max File Size', () => {
	const allowFiles = () => ({
		allowPrivateAddresses: true,
		allowedDownloadOrigins: `http://127.0.0.1:${files.port}`,
	});

	it('stores a file with Content-Length byte for byte', async () => {
		const body = Buffer.alloc(3 * 1024 * 1024 + 17, 'x');
		serveFile = (res) => {
			res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(body.length) });
			res.end(body);
		};
		const result = await downloadTranscript(allowFiles(), { maxFileSizeMiB: 4 });
		expect(result.error).toBeUndefined();
		expect(result.outputs[0][0].json.files).toEqual([
			expect.objectContaining({ bytes: body.length, fileName: `${taskId()}_transcript_txt.txt` }),
		]);
		expect(
			Buffer.from(String(result.outputs[0][0].binary?.transcript_txt.data), 'base64').equals(body),
		).toBe(true);
	});

	it('stores a body without Content-Length, counting its bytes', async () => {
		serveFile = (res) => {
			res.writeHead(200, { 'content-type': 'text/plain' });
			for (let chunk = 0; chunk < 16; chunk++) res.write(Buffer.alloc(64 * 1024, 'z'));
			res.end();
		};
		const result = await downloadTranscript(allowFiles(), { maxFileSizeMiB: 1 });
		expect(result.error).toBeUndefined();
		expect(result.outputs[0][0].json.files).toEqual([
			expect.objectContaining({ bytes: 1024 * 1024 }),
		]);
	});

	it('fails a body cut short of its Content-Length instead of storing part of it', async () => {
		serveFile = (res) => {
			res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(1024 * 1024) });
			res.write(Buffer.alloc(256 * 1024, 'y'), () => res.socket?.destroy());
		};
		const result = await downloadTranscript(allowFiles());
		expect(result.error?.message).toMatch(/^Downloading transcript_txt failed \(/);
		expect(result.outputs[0] ?? []).toEqual([]);
	});

	it('bounds a decompressed body by Max File Size (a small gzip of a large file)', async () => {
		const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0));
		serveFile = (res) => {
			res.writeHead(200, {
				'content-type': 'text/plain',
				'content-encoding': 'gzip',
				'content-length': String(bomb.length),
			});
			res.end(bomb);
		};
		const result = await downloadTranscript(allowFiles(), { maxFileSizeMiB: 1 });
		expect(result.error?.message).toBe(
			'Downloading transcript_txt: the file is larger than the Max File Size of 1 MiB; raise Max File Size to download it',
		);
	});

	it('refuses a redirect to another scheme of the same host', async () => {
		serveFile = (res) => {
			res.writeHead(302, { location: `https://127.0.0.1:${files.port}/moved` });
			res.end();
		};
		const result = await downloadTranscript(allowFiles());
		expect(result.error?.message).toBe(
			`Downloading transcript_txt: the download link redirected from http to https (127.0.0.1:${files.port}); redirects to another scheme are not followed`,
		);
		expect(files.requests).toHaveLength(1);
	});

	it('follows at most 3 redirects within the origin', async () => {
		// /hop/<n> redirects to /hop/<n + 1> (a same-origin 302) until `redirects` were given, then serves the file.
		let redirects = 0;
		serveFile = (res) => {
			const hop = /\/hop\/(\d+)$/.exec(files.requests.at(-1) ?? '');
			const next = hop ? Number(hop[1]) + 1 : 1;
			if (next > redirects) return void res.end('after the redirects');
			res.writeHead(302, { location: `/hop/${next}` });
			res.end();
		};
		const hops = [expect.stringMatching(/transcript\.txt$/), '/hop/1', '/hop/2', '/hop/3'];

		redirects = 3;
		const three = await downloadTranscript(allowFiles(), { maxRetries: 2 });
		expect(three.error).toBeUndefined();
		expect(text(three)).toBe('after the redirects');
		expect(files.requests).toEqual(hops);

		files.requests.length = 0;
		redirects = 4;
		const four = await downloadTranscript(allowFiles(), { maxRetries: 2 });
		expect(four.error?.name).toBe('NodeApiError');
		expect(four.error?.message).toBe('Downloading transcript_txt failed (HTTP 302)');
		// The fourth redirect is not followed (nor retried): exactly 4 requests reached the server.
		expect(files.requests).toEqual(hops);
		expect(four.outputs[0] ?? []).toEqual([]);
	});
});

describe('Download Files: names resolved before connecting (n8n 2.x egress filter)', () => {
	/**
	 * The node runs with `helpers.getSecureEgressFilter` added (n8n 2.x offers it; the harness's n8n-core 1.x does
	 * not), whose lookup answers from `answers`. What the HTTP client itself resolves goes through the network
	 * guard, which maps files.test and rebind.test to the recording server and refuses everything else.
	 */
	const answers: Record<string, FakeAnswer> = {
		'internal.test': ['10.0.0.5'],
		'meta.test': ['169.254.169.254'],
		'v6.test': ['fd00::1'],
		'mapped.test': ['::ffff:10.0.0.1'],
		'mixed.test': ['93.184.216.34', '10.0.0.1'],
		'files.test': ['127.0.0.1'],
		'public.test': ['93.184.216.34'],
		'flaky.test': Object.assign(new Error('getaddrinfo EAI_AGAIN flaky.test'), {
			code: 'EAI_AGAIN',
		}),
	};
	let egress: FakeEgressFilter;
	beforeEach(() => {
		egress = withEgressFilter(new ArchiveAiMetadata(), answers);
	});
	const refusalFor = (host: string, address: string, kind: string) =>
		`Downloading transcript_txt: ${host} resolves to ${address}, which is a ${kind} address; downloads from private, loopback, link-local and cloud metadata addresses are refused unless the credential's "Allow Private Addresses" is on`;
	const download = async (base: string, credentialFields: IDataObject = {}, options = {}) => {
		linkFor = (original) => `${base}${new URL(original).pathname}`;
		return await downloadTranscript(
			{ allowedDownloadOrigins: new URL(base).origin, ...credentialFields },
			options,
			egress.nodeType,
		);
	};

	it.each([
		['https://internal.test:8443', '10.0.0.5', 'private'],
		['http://meta.test', '169.254.169.254', 'cloud metadata'],
		['https://v6.test', 'fd00::1', 'unique-local'],
		['https://mapped.test', '::ffff:10.0.0.1', 'private'],
		['https://mixed.test', '10.0.0.1', 'private'],
	])('refuses %s (resolving to %s) before anything connects', async (base, address, kind) => {
		const result = await download(base);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(refusalFor(new URL(base).host, address, kind));
		expect(egress.policies).toEqual(['unsafe']);
		expect(egress.lookups).toEqual([{ hostname: new URL(base).hostname, options: { all: true } }]);
		expect(guard.lookups).toEqual([]);
		expect(guard.attempts).toEqual([]);
		expect(result.outputs[0] ?? []).toEqual([]);
	});

	it('refuses a name resolving to loopback with no connection, and downloads it once private addresses are allowed', async () => {
		const base = `http://files.test:${files.port}`;
		const refused = await download(base);
		expect(refused.error?.message).toBe(
			refusalFor(`files.test:${files.port}`, '127.0.0.1', 'loopback'),
		);
		expect(files.connections).toBe(0);

		const allowed = await download(base, { allowPrivateAddresses: true });
		expect(allowed.error).toBeUndefined();
		expect(text(allowed)).toBe('transcript text');
		expect(files.requests).toHaveLength(1);
	});

	it('does not resolve a name whose origin is not allowed', async () => {
		linkFor = (original) => `http://files.test:${files.port}${new URL(original).pathname}`;
		const result = await downloadTranscript({ allowPrivateAddresses: true }, {}, egress.nodeType);
		expect(result.error?.message).toContain(
			`the download link points to http://files.test:${files.port}, which is not in`,
		);
		expect(egress.lookups).toEqual([]);
		expect(files.connections).toBe(0);
	});

	it('passes a name resolving to public addresses on to the HTTP client', async () => {
		const result = await download('https://public.test');
		expect(egress.lookups.map((lookup) => lookup.hostname)).toEqual(['public.test']);
		// The guard stands for the internet: it refuses the connection the check let through.
		expect(guard.attempts).toEqual(['93.184.216.34']);
		expect(result.error?.message).toBe('Downloading transcript_txt failed (connection refused)');
	});

	it('resolves the name again before following a redirect', async () => {
		let calls = 0;
		answers['rebind.test'] = ['93.184.216.34'];
		const egressLookup = egress.lookups;
		serveFile = (res) => {
			// The name answers differently once the first request is in: the redirect is checked anew.
			answers['rebind.test'] = ['10.0.0.7'];
			calls++;
			res.writeHead(302, { location: '/moved' });
			res.end();
		};
		const base = `http://rebind.test:${files.port}`;
		const result = await download(base);
		delete answers['rebind.test'];
		expect(result.error?.message).toBe(
			refusalFor(`rebind.test:${files.port}`, '10.0.0.7', 'private'),
		);
		expect(calls).toBe(1);
		expect(files.requests).toHaveLength(1);
		expect(egressLookup.map((lookup) => lookup.hostname)).toEqual(['rebind.test', 'rebind.test']);
	});

	it('does not resolve an IP address written out (checked as written)', async () => {
		const result = await download('https://10.0.0.5:8443');
		expect(result.error?.message).toContain('10.0.0.5:8443 is a private address');
		expect(egress.lookups).toEqual([]);
	});

	it('treats a failed lookup as a network error, retried when it may pass next time', async () => {
		const flaky = await download('https://flaky.test', {}, { maxRetries: 1 });
		expect(flaky.error?.name).toBe('NodeApiError');
		expect(flaky.error?.message).toBe(
			'Downloading transcript_txt failed (host lookup failed) after 1 retry',
		);
		expect(egress.lookups).toHaveLength(2);
		egress.lookups.length = 0;
		const unknown = await download('https://unknown.test', {}, { maxRetries: 1 });
		expect(unknown.error?.message).toBe('Downloading transcript_txt failed (host not found)');
		expect(egress.lookups).toHaveLength(1);
		expect(guard.attempts).toEqual([]);
	});

	// Timing is not asserted here (the run includes n8n's request path and retry waits): the scan it uses,
	// findNetworkCode, is checked for linear time in test/nodes/shared/linearTime.test.ts.
	it('reads a lookup error of any length', async () => {
		answers['slow.test'] = new Error(`${'E'.repeat(40_000)}1`);
		const result = await download('https://slow.test');
		delete answers['slow.test'];
		expect(result.error?.message).toBe('Downloading transcript_txt failed (no response)');
	});
});

describe('Download Files: object paths', () => {
	it.each([
		['../other-task/transcript.txt', 'contains a "." or ".." segment'],
		['task/../../secrets/transcript.txt', 'contains a "." or ".." segment'],
		['task/./transcript.txt', 'contains a "." or ".." segment'],
		['/etc/transcript.txt', 'is absolute (starts with /)'],
		['/transcript.txt', 'is absolute (starts with /)'],
	])('refuses %s before presignS3 is asked', async (path, problem) => {
		pathFor = () => path;
		const result = await downloadTranscript({ allowPrivateAddresses: true });
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(
			`The transcript_txt column holds an object path that ${problem}; it is not downloaded`,
		);
		expect(presignRequests()).toBe(0);
		expect(looksLikeObjectPath(path)).toBe(true);
		expect(objectPathProblem(path)).toBe(problem);
	});

	it('still presigns an ordinary relative path', () => {
		expect(
			objectPathProblem('0b6a4d1e-3f5c-4b8a-9c2d-7e1f0a9b8c7d/transcript.srt'),
		).toBeUndefined();
		expect(looksLikeObjectPath('Goedenavond en welkom.')).toBe(false);
	});
});

describe('Download Files: the link (its signature) never appears in errors', () => {
	const SIGNATURE = 'SECRETSIG123';
	const CREDENTIAL = 'CREDSECRET';
	const PATH_SECRET = 'objkey-PATHSECRET-7f3e9a';
	/** A presigned-looking link at `base`: a secret path segment, the original path, and a signature query. */
	const signedLink = (base: string, original: string) =>
		`${base}/${PATH_SECRET}${new URL(original).pathname}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${CREDENTIAL}%2F20240101%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Signature=${SIGNATURE}`;
	const filesBase = () => `http://127.0.0.1:${files.port}`;
	const allowFiles = () => ({ allowPrivateAddresses: true, allowedDownloadOrigins: filesBase() });
	/** An error answer that echoes the request line, as S3 error bodies name the resource. */
	const echoing = (status: number) => (res: ServerResponse) => {
		res.writeHead(status, { 'content-type': 'application/xml' });
		res.end(`<Error><Code>Nope</Code><Resource>${files.requests.at(-1)}</Resource></Error>`);
	};

	interface FailureCase {
		credential: IDataObject;
		options?: INodeParameters;
		message: RegExp;
		/** Whether the signed link reaches the file server before the download fails. */
		reaches: boolean;
	}

	it.each<[string, () => FailureCase]>([
		[
			'origin not allowed',
			() => {
				linkFor = (original) => signedLink(filesBase(), original);
				return {
					credential: { allowPrivateAddresses: true },
					message: /the download link points to http:\/\/127\.0\.0\.1:\d+, which is not in/,
					reaches: false,
				};
			},
		],
		[
			'private address written out (Allow Private Addresses off)',
			() => {
				linkFor = (original) => signedLink(filesBase(), original);
				return {
					credential: { allowedDownloadOrigins: filesBase() },
					message: /127\.0\.0\.1:\d+ is a loopback address/,
					reaches: false,
				};
			},
		],
		[
			'a name answering from a private address (Allow Private Addresses off)',
			() => {
				const base = `http://files.test:${files.port}`;
				linkFor = (original) => signedLink(base, original);
				return {
					credential: { allowedDownloadOrigins: base },
					message: /files\.test:\d+ answered from 127\.0\.0\.1, which is a loopback address/,
					reaches: true,
				};
			},
		],
		[
			'redirect to another host',
			() => {
				linkFor = (original) => signedLink(filesBase(), original);
				serveFile = (res) => {
					res.writeHead(302, {
						location: signedLink(`http://127.0.0.2:${files.port}`, 'http://x/moved'),
					});
					res.end();
				};
				return {
					credential: allowFiles(),
					message: /redirected to another host \(127\.0\.0\.2:\d+\)/,
					reaches: true,
				};
			},
		],
		[
			'HTTP 403',
			() => {
				linkFor = (original) => signedLink(filesBase(), original);
				serveFile = echoing(403);
				return { credential: allowFiles(), message: /failed \(HTTP 403\)$/, reaches: true };
			},
		],
		[
			'repeated 503',
			() => {
				linkFor = (original) => signedLink(filesBase(), original);
				serveFile = echoing(503);
				return {
					credential: allowFiles(),
					options: { maxRetries: 1 },
					message: /failed \(HTTP 503\) after 1 retry$/,
					reaches: true,
				};
			},
		],
		[
			'network error (the server destroys the socket)',
			() => {
				linkFor = (original) => signedLink(filesBase(), original);
				serveFile = (res) => res.socket?.destroy();
				return {
					credential: allowFiles(),
					message: /failed \(connection reset\)$/,
					reaches: true,
				};
			},
		],
		[
			'file larger than Max File Size',
			() => {
				linkFor = (original) => signedLink(filesBase(), original);
				serveFile = (res) => {
					res.writeHead(200, {
						'content-type': 'text/plain',
						'content-length': String(2 * 1024 * 1024),
					});
					res.end(Buffer.alloc(2 * 1024 * 1024, 's'));
				};
				return {
					credential: allowFiles(),
					options: { maxFileSizeMiB: 1 },
					message: /the file is larger than the Max File Size of 1 MiB/,
					reaches: true,
				};
			},
		],
	])('keeps the link and its signature out of every error (%s)', async (_kind, arrange) => {
		const { credential, options, message, reaches } = arrange();
		const result = await downloadTranscript(credential, options);
		expect(result.error?.message).toMatch(message);
		// The node really held the secret link: it reached the file server whole, or was refused before.
		if (reaches) {
			expect(files.requests[0]).toContain(PATH_SECRET);
			expect(files.requests[0]).toContain(SIGNATURE);
			expect(files.requests[0]).toContain(CREDENTIAL);
		} else expect(files.connections).toBe(0);
		const everything = everythingOf(result);
		for (const secret of [SIGNATURE, CREDENTIAL, PATH_SECRET])
			expect(everything).not.toContain(secret);
	});
});
