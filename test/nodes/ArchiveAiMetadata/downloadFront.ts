import { request as httpRequest } from 'node:http';
import type { ServerResponse } from 'node:http';

import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../../dev/emulators';
import { forward, startTestOrigin } from '../../../dev/harness/testOrigin';
import type { ReceivedRequest, TestOrigin } from '../../../dev/harness/testOrigin';

/** The set-up of the Download Files tests that choose where the node's download links point. */

/** The operation name of the node's presignS3 request. */
export const PRESIGN = 'PresignFiles';

/** How the front rewrites the emulator's answers: each presigned link, and (when set) each record's object path. */
export interface AnswerRewrites {
	link: (original: string) => string;
	path?: (original: string) => string;
}

/**
 * An origin in front of the AI emulator that passes everything on, but rewrites the links presignS3 returns and, when
 * `path` is set, the `transcript_txt` object paths the record query returns. `rewrites` is read per request, so a test
 * can change them in its `beforeEach`.
 */
export async function startRewritingFront(
	sandbox: Sandbox,
	rewrites: () => AnswerRewrites,
): Promise<TestOrigin> {
	return await startTestOrigin((request, res) => {
		const text = request.body.toString('utf8');
		const { path } = rewrites();
		if (text.includes(PRESIGN) || (path && text.includes('transcript_txt')))
			return forwardRewriting(sandbox, request, res, rewrites());
		forward(request, res, sandbox.ai.baseUrl);
	});
}

function forwardRewriting(
	sandbox: Sandbox,
	request: ReceivedRequest,
	res: ServerResponse,
	rewrites: AnswerRewrites,
): void {
	const target = new URL(sandbox.ai.baseUrl);
	const upstream = httpRequest(
		{
			host: target.hostname,
			port: target.port,
			method: request.method,
			path: `${request.url.pathname}${request.url.search}`,
			headers: { ...request.headers, host: target.host },
		},
		(answer) => {
			const chunks: Buffer[] = [];
			answer.on('data', (chunk: Buffer) => chunks.push(chunk));
			answer.on('end', () => {
				const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
					data?: Record<string, Array<Record<string, unknown>> | null>;
				};
				const presigning = request.body.toString('utf8').includes(PRESIGN);
				for (const rows of Object.values(body.data ?? {})) {
					for (const row of rows ?? []) {
						for (const [field, value] of Object.entries(row)) {
							if (typeof value !== 'string') continue;
							if (presigning) row[field] = rewrites.link(value);
							else if (rewrites.path && field === 'transcript_txt')
								row[field] = rewrites.path(value);
						}
					}
				}
				res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json' });
				res.end(JSON.stringify(body));
			});
		},
	);
	upstream.end(request.body);
}

/** The id of a speech task that succeeded, so it has files to download. */
export function succeededSpeechTaskId(sandbox: Sandbox): string {
	return String(
		(sandbox.data.ai.records('speech_tasks', ['task_id', 'status']) as IDataObject[]).find(
			(row) => row.status === 'succeeded',
		)?.task_id,
	);
}
