import type { IDataObject } from 'n8n-workflow';

import type { AiNaming, RawStorage, Sandbox } from '../../../dev/emulators';
import { resetState, runAi, withSandbox } from './helpers';

const SPEECH_FILES: Array<[string, string]> = [
	['transcript_srt', 'transcript.srt'],
	['transcript_vtt', 'transcript.vtt'],
	['transcript_txt', 'transcript.txt'],
	['transcript_json', 'transcript.json'],
	['audio_classification_json', 'audio_classification.json'],
];

const COMBINATIONS: Array<[AiNaming, RawStorage]> = [
	['seed', 'inline'],
	['seed', 'paths'],
	['live', 'inline'],
	['live', 'paths'],
];

describe.each(COMBINATIONS)('Download Files (%s naming, %s raw storage)', (naming, storage) => {
	let sandbox: Sandbox;
	const vendor = naming === 'seed' ? 'extractor' : 'nerengine';
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 60, aiNaming: naming, aiRawStorage: storage });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	const succeeded = (view: string) =>
		String(
			(sandbox.data.ai.records(view, ['task_id', 'status']) as IDataObject[]).find(
				(row) => row.status === 'succeeded',
			)?.task_id,
		);
	const fileText = (taskId: string, file: string) =>
		sandbox.data.ai.fileContent(`${taskId}/${file}`)?.content;

	it('speech task: every file as binary data, byte for byte', async () => {
		const taskId = succeeded('speech_tasks');
		const result = await runAi(sandbox, {
			resource: 'speechTask',
			operation: 'downloadFiles',
			taskId,
		});
		expect(result.error).toBeUndefined();
		const [item] = result.outputs[0];
		expect(item.pairedItem).toEqual({ item: 0 });
		for (const [column, file] of SPEECH_FILES) {
			const binary = item.binary?.[column];
			expect(binary).toBeDefined();
			expect(Buffer.from(String(binary?.data), 'base64').toString('utf8')).toBe(
				fileText(taskId, file),
			);
		}
		expect(item.binary?.transcript_srt.mimeType).toBe('application/x-subrip');
		expect(item.binary?.transcript_srt.fileName).toBe(`${taskId}_transcript_srt.srt`);
		expect((item.json.files as IDataObject[]).map((file) => file.source)).toEqual(
			SPEECH_FILES.map(() => (storage === 'paths' ? 'presigned' : 'inline')),
		);
		const downloads = sandbox.counters.get().ai.requests.files ?? 0;
		expect(downloads).toBe(storage === 'paths' ? SPEECH_FILES.length : 0);
	});

	it('NER task: the vendor output under its live column name, with a property prefix', async () => {
		const taskId = succeeded('ner_tasks');
		const column = `${vendor}_json`;
		const result = await runAi(sandbox, {
			resource: 'nerTask',
			operation: 'downloadFiles',
			taskId,
			files: [column],
			options: { binaryPropertyPrefix: 'file_' },
		});
		expect(result.error).toBeUndefined();
		const [item] = result.outputs[0];
		expect(Object.keys(item.binary ?? {})).toEqual([`file_${column}`]);
		expect(
			Buffer.from(String(item.binary?.[`file_${column}`].data), 'base64').toString('utf8'),
		).toBe(fileText(taskId, `${vendor}.json`));
		expect(item.json).toMatchObject({ task_id: taskId, missing: [] });
	});

	it('a failed task has no files: they are listed as missing', async () => {
		const taskId = String(
			(sandbox.data.ai.records('ner_tasks', ['task_id', 'status']) as IDataObject[]).find(
				(row) => row.status === 'failed',
			)?.task_id,
		);
		const result = await runAi(sandbox, {
			resource: 'nerTask',
			operation: 'downloadFiles',
			taskId,
		});
		expect(result.error).toBeUndefined();
		expect(result.outputs[0][0].json.missing).toEqual(['processed_json', `${vendor}_json`]);
		expect(result.outputs[0][0].binary ?? {}).toEqual({});
	});
});

describe('Download Files input checks', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 20 });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	it('refuses a task ID that is not a UUID before the data query, and names the parameter', async () => {
		const result = await runAi(sandbox, {
			resource: 'speechTask',
			operation: 'downloadFiles',
			taskId: 'not-a-uuid',
		});
		expect(result.error?.message).toBe('Parameter "Task ID": must be a UUID, got "not-a-uuid"');
	});

	it('refuses a file the view does not have', async () => {
		const taskId = String(sandbox.data.ai.records('speech_tasks', ['task_id'])[0].task_id);
		const result = await runAi(sandbox, {
			resource: 'speechTask',
			operation: 'downloadFiles',
			taskId,
			files: ['processed_json'],
		});
		expect(result.error?.message).toContain('Parameter "Files": unknown file "processed_json"');
	});

	it('an unknown task is an error for its item only when continuing on fail', async () => {
		const known = String(sandbox.data.ai.records('speech_tasks', ['task_id'])[0].task_id);
		const result = await runAi(
			sandbox,
			{
				resource: 'speechTask',
				operation: 'downloadFiles',
				taskId: '={{ $json.id }}',
				files: ['transcript_txt'],
			},
			{
				input: [{ id: '00000000-0000-0000-0000-000000000000' }, { id: known }],
				settings: { continueOnFail: true },
			},
		);
		expect(result.error).toBeUndefined();
		const items = result.outputs[0];
		expect(items[0].json.error).toBe(
			'No speech task with task_id "00000000-0000-0000-0000-000000000000" was found',
		);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(items[1].json.task_id).toBe(known);
	});
});
