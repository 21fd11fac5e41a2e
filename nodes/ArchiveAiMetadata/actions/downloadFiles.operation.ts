import { NodeOperationError } from 'n8n-workflow';
import type {
	IBinaryData,
	IBinaryKeyData,
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	IExecuteFunctions,
} from 'n8n-workflow';

import { buildRootFieldQuery } from '../../shared/graphql/documents';
import { nounOf } from '../../shared/n8n/english';
import { executeGrouped } from '../../shared/n8n/executeGrouped';
import type { GroupResults } from '../../shared/n8n/executeGrouped';
import { assertValidAgainstSchema } from '../api/documents';
import { DEFAULT_MAX_FILE_SIZE_MIB, downloadPresignedFile, MIB } from '../api/download';
import type { BinarySource } from '../api/download';
import { readDownloadPolicy } from '../api/downloadPolicy';
import type { DownloadPolicy } from '../api/downloadPolicy';
import {
	parameterError,
	readMaxConcurrency,
	readMaxRetries,
	splitList,
} from '../../shared/n8n/params';
import {
	PRESIGN_ARGUMENT,
	PRESIGN_FIELD,
	looksLikeObjectPath,
	objectPathProblem,
	presignedFieldFor,
	resolvePresign,
} from '../api/presign';
import { AiSession, viewOf } from '../api/viewSource';
import type { AiMetadataConnection } from '../api/client';
import { viewKeyOf } from '../api/views';
import type { AiViewKey, DownloadableFile, ResolvedView } from '../api/views';
import { RESOURCES_WITH_FILES, optionsCollection, retriesOption, showFor } from './common';
import {
	checkRecordId,
	findRecordsById,
	lookupConcurrencyOption,
	readRecordId,
	recordKeyOf,
} from './get.operation';

/**
 * Largest Max File Size accepted. n8n's default binary data mode keeps a file in memory as base64 text, which
 * cannot exceed about 384 MiB of file at all; its database mode stops at 1024 MiB. Filesystem and S3 modes take
 * larger files, but a single transcript or model output of a gigabyte is a mistake, not a file to fetch.
 */
const MAX_FILE_SIZE_LIMIT_MIB = 1024;

const show = showFor(RESOURCES_WITH_FILES, ['downloadFiles']);

export const description: INodeProperties[] = [
	{
		displayName: 'File Names or IDs',
		name: 'files',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getDownloadableFiles', loadOptionsDependsOn: ['resource'] },
		default: [],
		description:
			'Files to download; none chosen means every file the task has. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: show,
	},
	optionsCollection(show, [
		{
			displayName: 'Binary Property Prefix',
			name: 'binaryPropertyPrefix',
			type: 'string',
			default: '',
			description:
				'Put in front of each binary property name; the name itself is the column (e.g. transcript_srt becomes file_transcript_srt with prefix file_)',
		},
		{
			displayName: 'Max File Size (MiB)',
			name: 'maxFileSizeMiB',
			type: 'number',
			default: DEFAULT_MAX_FILE_SIZE_MIB,
			typeOptions: { minValue: 0.01, maxValue: MAX_FILE_SIZE_LIMIT_MIB, numberPrecision: 2 },
			description:
				'Largest file to download (at most 1024); a larger one stops the item with an error naming the file, after reading no more than this much of it',
		},
		lookupConcurrencyOption,
		retriesOption,
	]),
];

function readMaxFileSize(ctx: IExecuteFunctions, itemIndex: number, value: unknown): number {
	const mib = Number(value ?? DEFAULT_MAX_FILE_SIZE_MIB);
	if (!Number.isFinite(mib) || mib <= 0 || mib > MAX_FILE_SIZE_LIMIT_MIB) {
		throw parameterError(
			ctx,
			itemIndex,
			'Max File Size (MiB)',
			`must be a number above 0 and at most ${MAX_FILE_SIZE_LIMIT_MIB}, got ${JSON.stringify(value)}`,
		);
	}
	return Math.floor(mib * MIB);
}

function readDownloadParameters(ctx: IExecuteFunctions, itemIndex: number, viewKey: AiViewKey) {
	const options = ctx.getNodeParameter('options', itemIndex, {});
	return {
		taskId: readRecordId(ctx, itemIndex, viewKey),
		/** The chosen file columns; none means every file the task has. */
		files: splitList(ctx.getNodeParameter('files', itemIndex, [])),
		prefix: String((options.binaryPropertyPrefix as string | undefined) ?? '').trim(),
		maxRetries: readMaxRetries(ctx, itemIndex, options.maxRetries),
		/** Look-up batches in flight. */
		concurrency: readMaxConcurrency(ctx, itemIndex, options.maxConcurrency),
		maxBytes: readMaxFileSize(ctx, itemIndex, options.maxFileSizeMiB),
	};
}

/** The chosen files by their live columns; none chosen means every file the view has. */
function chooseFiles(
	ctx: IExecuteFunctions,
	itemIndex: number,
	view: ResolvedView,
	wanted: string[],
): DownloadableFile[] {
	if (wanted.length === 0) return view.files;
	return wanted.map((column) => {
		const file = view.files.find((candidate) => candidate.column === column);
		if (!file) {
			throw parameterError(
				ctx,
				itemIndex,
				'Files',
				`unknown file "${column}"; available: ${view.files.map((f) => f.column).join(', ')}`,
			);
		}
		return file;
	});
}

/** One presignS3 query for all of the task's object paths; returns column -> URL. */
async function presignPaths(
	ctx: IExecuteFunctions,
	connection: AiMetadataConnection,
	itemIndex: number,
	paths: Map<string, string>,
): Promise<Map<string, string>> {
	const urls = new Map<string, string>();
	if (paths.size === 0) return urls;
	const presign = resolvePresign(connection.schema);
	const outputs = new Map<string, string>();
	for (const column of paths.keys()) {
		const output = presign ? presignedFieldFor(presign, column) : undefined;
		if (!output) {
			throw new NodeOperationError(
				ctx.getNode(),
				`The API offers no download link (${PRESIGN_FIELD}) for ${column}`,
				{ itemIndex },
			);
		}
		outputs.set(column, output);
	}
	const document = buildRootFieldQuery({
		operationName: 'PresignFiles',
		rootField: PRESIGN_FIELD,
		arguments: [{ name: PRESIGN_ARGUMENT, type: presign!.argumentType }],
		fields: [...new Set(outputs.values())],
	});
	const variables = { [PRESIGN_ARGUMENT]: Object.fromEntries(paths) };
	assertValidAgainstSchema(ctx, itemIndex, connection.schema, document, variables, {
		selection: 'Files',
		variables: {},
	});
	const data = await connection.client.request<
		Record<string, Array<Record<string, string | null>> | null>
	>({ document, variables }, itemIndex);
	// The API answers with a list; its first element holds the URLs.
	const first = data[PRESIGN_FIELD]?.[0] ?? {};
	for (const [column, output] of outputs) {
		const url = first[output];
		if (typeof url !== 'string' || url === '') {
			throw new NodeOperationError(
				ctx.getNode(),
				`The API returned no download link for ${column}`,
				{ itemIndex },
			);
		}
		urls.set(column, url);
	}
	return urls;
}

/** Stores a body as the item's binary data, under the name and type the column's file has. */
async function storeBinary(
	ctx: IExecuteFunctions,
	itemIndex: number,
	file: DownloadableFile,
	fileName: string,
	body: BinarySource,
): Promise<IBinaryData> {
	try {
		return await ctx.helpers.prepareBinaryData(body, fileName, file.mimeType);
	} catch (error) {
		// n8n's default binary data mode holds the file as one base64 string, which V8 caps at 512 MiB of text.
		if ((error as { code?: unknown }).code !== 'ERR_STRING_TOO_LONG')
			throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
		throw new NodeOperationError(
			ctx.getNode(),
			`Downloading ${file.column}: the file is too large for n8n's default binary data mode, which keeps it in memory`,
			{
				itemIndex,
				description:
					'Set N8N_DEFAULT_BINARY_DATA_MODE=filesystem on the n8n instance to download files of this size.',
			},
		);
	}
}

/** One item's files as binary data, with what was fetched and what the task did not have. */
async function downloadItemFiles(
	ctx: IExecuteFunctions,
	connection: AiMetadataConnection,
	view: ResolvedView,
	itemIndex: number,
	record: IDataObject,
	files: DownloadableFile[],
	settings: ReturnType<typeof readDownloadParameters>,
	policy: DownloadPolicy,
): Promise<INodeExecutionData[]> {
	const inline = new Map<DownloadableFile, string>();
	const paths = new Map<string, string>();
	for (const file of files) {
		const value = record[file.column];
		if (value === null || value === undefined || value === '') continue;
		if (typeof value !== 'string' || !looksLikeObjectPath(value)) {
			inline.set(file, typeof value === 'string' ? value : JSON.stringify(value));
			continue;
		}
		const path = value.trim();
		// A path with a `..` segment or a leading `/` stops the item before a link is asked for.
		const problem = objectPathProblem(path);
		if (problem) {
			throw new NodeOperationError(
				ctx.getNode(),
				`The ${file.column} column holds an object path that ${problem}; it is not downloaded`,
				{
					itemIndex,
					description:
						"Object paths are relative to the archive's bucket (e.g. <task_id>/transcript.srt); this one is refused before a download link is asked for.",
				},
			);
		}
		paths.set(file.column, path);
	}
	const urls = await presignPaths(ctx, connection, itemIndex, paths);
	const binary: IBinaryKeyData = {};
	const described: IDataObject[] = [];
	const missing: string[] = [];
	// In the order the files were asked for.
	for (const file of files) {
		const fileName = `${settings.taskId}_${file.column}.${file.extension}`;
		const text = inline.get(file);
		const url = urls.get(file.column);
		let fetched: { stored: IBinaryData; bytes: number; source: 'inline' | 'presigned' };
		if (text !== undefined) {
			const body = Buffer.from(text, 'utf8');
			const stored = await storeBinary(ctx, itemIndex, file, fileName, body);
			fetched = { stored, bytes: body.length, source: 'inline' };
		} else if (url) {
			const { maxRetries, maxBytes } = settings;
			const download = await downloadPresignedFile(
				ctx,
				{ url, label: file.column, itemIndex, maxRetries, maxBytes, policy },
				async ({ body }) => await storeBinary(ctx, itemIndex, file, fileName, body),
			);
			fetched = { ...download, source: 'presigned' };
		} else {
			missing.push(file.column);
			continue;
		}
		const property = `${settings.prefix}${file.column}`;
		binary[property] = fetched.stored;
		described.push({
			column: file.column,
			binaryProperty: property,
			fileName: fetched.stored.fileName,
			mimeType: file.mimeType,
			bytes: fetched.bytes,
			source: fetched.source,
		});
	}
	const json: IDataObject = {
		...Object.fromEntries(baseColumnsOf(view).map((column) => [column, record[column]])),
		files: described,
		missing,
	};
	return [{ json, binary }];
}

function baseColumnsOf(view: ResolvedView): string[] {
	return ['task_id', 'pid'].filter((column) => view.columns.includes(column));
}

/**
 * Download Files: a speech or NER task's transcripts and raw outputs as binary data. The tasks of all input items are
 * looked up together; then each item's object paths are fetched through presignS3 links (columns holding the content
 * itself are used as they are), one item after the other. @public
 */
export async function execute(
	this: IExecuteFunctions,
	resource: string,
): Promise<INodeExecutionData[]> {
	const session = new AiSession(this);
	const viewKey = viewKeyOf(this, resource);
	let policy: Promise<DownloadPolicy> | undefined;
	// Read once per run, after the items' own parameters were checked.
	const readPolicy = async () =>
		await (policy ??= this.getCredentials('archiveAiMetadataApi').then((credentials) =>
			readDownloadPolicy(this.getNode(), credentials),
		));
	return await executeGrouped(this, {
		read: (itemIndex) => readDownloadParameters(this, itemIndex, viewKey),
		groupKey: ({ maxRetries, concurrency }) => JSON.stringify([maxRetries, concurrency]),
		run: async (items) => {
			const first = items[0].itemIndex;
			const { maxRetries, concurrency } = items[0].parameters;
			const downloadPolicy = await readPolicy();
			const connection = await session.connect(maxRetries);
			const source = await viewOf(this, connection, viewKey, { itemIndex: first });
			const { view } = source;
			const results: GroupResults = new Map();
			const wanted = new Map<number, DownloadableFile[]>();
			for (const { itemIndex, parameters } of items) {
				try {
					checkRecordId(this, itemIndex, view, parameters.taskId);
					wanted.set(itemIndex, chooseFiles(this, itemIndex, view, parameters.files));
				} catch (error) {
					results.set(itemIndex, error as Error);
				}
			}
			const columns = [...wanted.values()].flat().map((file) => file.column);
			const records = await findRecordsById(
				this,
				source,
				first,
				items
					.filter(({ itemIndex }) => wanted.has(itemIndex))
					.map((item) => item.parameters.taskId),
				[...new Set([...baseColumnsOf(view), ...columns])],
				concurrency,
			);
			for (const { itemIndex, parameters } of items) {
				const files = wanted.get(itemIndex);
				if (!files) continue;
				const [record] = records.get(recordKeyOf(view, parameters.taskId)) ?? [];
				if (!record) {
					const message = `No ${nounOf(view.definition.displayName)} with ${view.idColumn} "${parameters.taskId}" was found`;
					const description = "Check the Task ID, or the account's access to this task.";
					results.set(
						itemIndex,
						new NodeOperationError(this.getNode(), message, { itemIndex, description }),
					);
					continue;
				}
				results.set(
					itemIndex,
					await downloadItemFiles(
						this,
						connection,
						view,
						itemIndex,
						record,
						files,
						parameters,
						downloadPolicy,
					).catch((error: unknown) => error as Error),
				);
			}
			return results;
		},
	});
}
