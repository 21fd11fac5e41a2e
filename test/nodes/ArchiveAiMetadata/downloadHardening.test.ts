import type { ServerResponse } from 'node:http';

import type { INodeParameters } from 'n8n-workflow';

import { ArchiveAiMetadata } from '../../../nodes/ArchiveAiMetadata/ArchiveAiMetadata.node';
import type { Sandbox } from '../../../dev/emulators';
import { runNode } from '../../../dev/harness/execute';
import { startTestOrigin } from '../../../dev/harness/testOrigin';
import { startRewritingFront, succeededSpeechTaskId } from './downloadFront';
import type { ReceivedRequest, TestOrigin } from '../../../dev/harness/testOrigin';
import { aiCredentials, resetState, withSandbox } from './helpers';

/**
 * Download Files against hostile download links. The node talks to `front`, which passes everything on to the
 * emulator but rewrites the links presignS3 returns (`linkFor`), so they point at `files`, a server of the test's
 * own whose answers each test chooses (`serveFile`). `elsewhere` is a third origin that records what reaches it.
 */
let sandbox: Sandbox;
let front: TestOrigin;
let files: TestOrigin;
let elsewhere: TestOrigin;
let linkFor: (original: string) => string;
let serveFile: (request: ReceivedRequest, res: ServerResponse) => void;

beforeAll(async () => {
	sandbox = await withSandbox({ rows: 20, aiRawStorage: 'paths' });
	front = await startRewritingFront(sandbox, () => ({ link: linkFor }));
	files = await startTestOrigin((request, res) => serveFile(request, res));
	elsewhere = await startTestOrigin();
});
afterAll(async () =>
	Promise.all([sandbox.close(), front.close(), files.close(), elsewhere.close()]),
);
beforeEach(async () => {
	await resetState(sandbox);
	for (const origin of [front, files, elsewhere]) origin.requests.length = 0;
	linkFor = (original) => `${files.baseUrl}${new URL(original).pathname}`;
	serveFile = (_request, res) => {
		res.writeHead(200, { 'content-type': 'text/plain' });
		res.end('transcript text');
	};
});

const taskId = () => succeededSpeechTaskId(sandbox);

async function downloadTranscript(
	options: INodeParameters = {},
	onStarted?: (cancel: () => void) => void,
) {
	const credentials = aiCredentials(sandbox, {
		graphqlUrl: `${front.baseUrl}${new URL(sandbox.ai.graphqlUrl).pathname}`,
		allowedDownloadOrigins: files.baseUrl,
	});
	const parameters = {
		resource: 'speechTask',
		operation: 'downloadFiles',
		taskId: taskId(),
		files: ['transcript_txt'],
		options,
	};
	return await runNode({ nodeType: new ArchiveAiMetadata(), parameters, credentials, onStarted });
}

function status(code: number): (request: ReceivedRequest, res: ServerResponse) => void {
	return (_request, res) => {
		res.writeHead(code, { 'content-type': 'application/xml' });
		res.end('<Error><Code>Nope</Code></Error>');
	};
}

describe('Download Files retries', () => {
	it('downloads through the rewritten link (the set-up works)', async () => {
		const result = await downloadTranscript();
		expect(result.error).toBeUndefined();
		expect(
			Buffer.from(String(result.outputs[0][0].binary?.transcript_txt.data), 'base64').toString(
				'utf8',
			),
		).toBe('transcript text');
		expect(files.requests).toHaveLength(1);
	});

	it.each([403, 404, 429])('does not retry HTTP %i', async (code) => {
		serveFile = status(code);
		const result = await downloadTranscript({ maxRetries: 3 });
		expect(result.error?.message).toBe(`Downloading transcript_txt failed (HTTP ${code})`);
		expect(files.requests).toHaveLength(1);
	});

	it('retries a 5xx', async () => {
		let answered = 0;
		serveFile = (request, res) =>
			answered++ < 1 ? status(503)(request, res) : res.end('second time lucky');
		const result = await downloadTranscript({ maxRetries: 3 });
		expect(result.error).toBeUndefined();
		expect(files.requests).toHaveLength(2);
	});

	it('stops retrying when the execution is cancelled', async () => {
		let cancel: () => void = () => undefined;
		serveFile = (request, res) => {
			cancel();
			status(503)(request, res);
		};
		await downloadTranscript({ maxRetries: 3 }, (cancelRun) => (cancel = cancelRun));
		expect(files.requests).toHaveLength(1);
	});
});

/** Streams `totalBytes` in 64 KiB chunks, honouring backpressure; resolves with the bytes written when the response ends or is cut. */
function streamBody(
	res: ServerResponse,
	totalBytes: number,
	headers: Record<string, string> = {},
): Promise<number> {
	const chunk = Buffer.alloc(64 * 1024, 'a');
	res.writeHead(200, { 'content-type': 'text/plain', ...headers });
	return new Promise((resolve) => {
		let written = 0;
		const finish = () => resolve(written);
		res.on('close', finish);
		const pump = () => {
			while (written < totalBytes && !res.destroyed) {
				written += chunk.length;
				if (!res.write(chunk)) return void res.once('drain', pump);
			}
			res.end();
		};
		pump();
	});
}

describe('Download Files refuses hostile links and oversized files', () => {
	it.each([
		[
			'a data: link',
			'data:text/plain;base64,aGVsbG8=',
			'the API returned a data: link; only http and https links are downloaded',
		],
		[
			'a file: link',
			'file:///etc/passwd',
			'the API returned a file: link; only http and https links are downloaded',
		],
		[
			'plain http to another host',
			'http://files.example.invalid/object',
			'the download link points to http://files.example.invalid, which is not in the credential\'s "Allowed Download Origins"',
		],
	])('refuses %s before any download', async (_case, link, message) => {
		linkFor = () => link;
		const result = await downloadTranscript({ maxRetries: 0 });
		expect(result.error?.message).toContain(`Downloading transcript_txt: ${message}`);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(files.requests).toHaveLength(0);
	});

	it('does not follow a redirect to another host, and names the host', async () => {
		serveFile = (request, res) => {
			res.writeHead(302, { location: `${elsewhere.baseUrl}/stolen${request.url.search}` });
			res.end();
		};
		const result = await downloadTranscript({ maxRetries: 2 });
		expect(result.error?.message).toBe(
			`Downloading transcript_txt: the download link redirected to another host (${new URL(elsewhere.baseUrl).host}); redirects to other hosts are not followed`,
		);
		expect(files.requests).toHaveLength(1);
		expect(elsewhere.requests).toHaveLength(0);
	});

	it("follows a redirect within the link's own origin", async () => {
		serveFile = (request, res) => {
			if (request.url.pathname === '/moved') return void res.end('moved content');
			res.writeHead(302, { location: '/moved' });
			res.end();
		};
		const result = await downloadTranscript();
		expect(result.error).toBeUndefined();
		expect(
			Buffer.from(String(result.outputs[0][0].binary?.transcript_txt.data), 'base64').toString(
				'utf8',
			),
		).toBe('moved content');
		expect(files.requests.map((request) => request.url.pathname)).toEqual([
			expect.stringMatching(/transcript\.txt$/),
			'/moved',
		]);
	});

	it('refuses a file whose Content-Length is over Max File Size without reading it', async () => {
		let sent: Promise<number> = Promise.resolve(0);
		serveFile = (_request, res) => {
			sent = streamBody(res, 8 * 1024 * 1024, { 'content-length': String(8 * 1024 * 1024) });
		};
		const result = await downloadTranscript({ maxFileSizeMiB: 1 });
		expect(result.error?.message).toBe(
			'Downloading transcript_txt: the file is larger than the Max File Size of 1 MiB; raise Max File Size to download it',
		);
		expect(await sent).toBeLessThan(8 * 1024 * 1024);
	});

	it('stops reading a body without Content-Length as soon as it passes Max File Size (default 100 MiB)', async () => {
		let sent: Promise<number> = Promise.resolve(0);
		const total = 160 * 1024 * 1024;
		serveFile = (_request, res) => {
			sent = streamBody(res, total);
		};
		const result = await downloadTranscript({ maxRetries: 0 });
		expect(result.error?.message).toBe(
			'Downloading transcript_txt: the file is larger than the Max File Size of 100 MiB; raise Max File Size to download it',
		);
		// Cut off near the limit: what was written but not read sat in socket buffers only.
		expect(await sent).toBeLessThan(110 * 1024 * 1024);
		expect(files.requests).toHaveLength(1);
	});

	it('downloads a file just under Max File Size', async () => {
		serveFile = (_request, res) => void streamBody(res, 10 * 64 * 1024);
		const result = await downloadTranscript({ maxFileSizeMiB: 1 });
		expect(result.error).toBeUndefined();
		expect(result.outputs[0][0].json.files).toEqual([
			expect.objectContaining({ bytes: 10 * 64 * 1024 }),
		]);
	});

	it('refuses a Max File Size that is not a positive number, naming the parameter', async () => {
		const result = await downloadTranscript({ maxFileSizeMiB: 0 });
		expect(result.error?.message).toBe(
			'Parameter "Max File Size (MiB)": must be a number above 0 and at most 1024, got 0',
		);
		expect(files.requests).toHaveLength(0);
	});

	it('refuses a Max File Size above 1,024 MiB, naming the parameter', async () => {
		const over = await downloadTranscript({ maxFileSizeMiB: 1025 });
		expect(over.error?.message).toBe(
			'Parameter "Max File Size (MiB)": must be a number above 0 and at most 1024, got 1025',
		);
		expect(files.requests).toHaveLength(0);

		const atLimit = await downloadTranscript({ maxFileSizeMiB: 1024 });
		expect(atLimit.error).toBeUndefined();
		expect(
			Buffer.from(String(atLimit.outputs[0][0].binary?.transcript_txt.data), 'base64').toString(
				'utf8',
			),
		).toBe('transcript text');
		expect(files.requests).toHaveLength(1);
	});
});
