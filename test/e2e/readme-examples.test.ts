import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { DEMO_CREDENTIALS, demoCredentials } from '../../scripts/demo/workflows';
import {
	startSandbox,
	type AiDataset,
	type AiRecord,
	type OrgDataset,
	type Sandbox,
} from '../../dev/emulators';
import { generateSecret } from '../../dev/emulators/webhook/sender';
import { parseCsv } from '../../dev/n8n/csv';
import { selectedN8nVersions } from '../../dev/n8n/install';
import { N8nInstance, type ExecutionRecord } from '../../dev/n8n/n8n';
import { describeIfPackageBuilt, packageUnderTest } from '../../dev/n8n/package';
import { nodeItems, nodeJson, type RunExecutionData } from '../../dev/n8n/run-data';
import {
	chainWorkflow,
	code,
	graphWorkflow,
	manualTrigger,
	node,
	PACKAGE_NODE_TYPES,
	setFields,
	type WorkflowJson,
	type WorkflowNode,
} from '../../dev/n8n/workflows';

// README's Usage section in real n8n: Example 2 (the AI Metadata Trigger's hourly CSV export), fed by the trigger's
// activation poll, and each "More examples" bullet, built as README describes them and run against the emulators.
// Example 1 is examples/sip-status.json (the same nodes): test/e2e/examples.test.ts imports and runs it.

const pkg = packageUnderTest();
// The demo's scale: enough failed speech tasks of one content partner since June for the first bullet.
const ROWS = 1000;
const SEED = 42;
/** Start From of README's Example 2: what was processed since then is exported on the first activation. */
const EXPORT_START_FROM = '2025-06-15T00:00:00Z';
/** README's "since June" filter, written without a zone: the workflow's timezone applies. */
const TIME_FROM = '2025-06-01';
const WORKFLOW_TIMEZONE = 'Europe/Brussels';
/** 2025-06-01 00:00 in Brussels (CEST, UTC+2). */
const TIME_FROM_UTC = Date.parse('2025-05-31T22:00:00Z');
const MIN_MATCH_SCORE = 0.9;

type ContentPartner = OrgDataset['contentPartners'][number];

function byText(a: unknown, b: unknown): number {
	const left = String(a);
	const right = String(b);
	return left < right ? -1 : left > right ? 1 : 0;
}

function timeOf(record: AiRecord): number {
	return Date.parse(String(record.processed_time));
}

function mainContactEmail(partner: ContentPartner): unknown {
	const main =
		partner.contact_point.find((each) => each.contact_type === 'primary') ??
		partner.contact_point[0];
	return main?.email ?? null;
}

function contentPartnerOf(org: OrgDataset, id: unknown): ContentPartner {
	const partner = org.contentPartners.find((each) => each.id === id);
	if (!partner) throw new Error(`no content partner ${String(id)} in the Organization emulator`);
	return partner;
}

/** Succeeded speech tasks since Start From, in the order the trigger emits them (time, then task id). */
function exportedTaskIds(ai: AiDataset): string[] {
	const from = Date.parse(EXPORT_START_FROM);
	return ai
		.records('speech_tasks')
		.filter((each) => each.status === 'succeeded' && timeOf(each) >= from)
		.sort((a, b) => timeOf(a) - timeOf(b) || byText(a.task_id, b.task_id))
		.map((each) => String(each.task_id));
}

function failedSpeechSinceJune(ai: AiDataset, cp: unknown): AiRecord[] {
	return ai
		.records('speech_tasks')
		.filter((each) => each.status === 'failed' && each.cp === cp && timeOf(each) >= TIME_FROM_UTC);
}

/** The content partner with the most failed speech tasks since June, so the first bullet has rows to show. */
function busiestFailingPartner(ai: AiDataset): string {
	const partners = [...new Set(ai.records('speech_tasks').map((each) => String(each.cp)))].sort();
	return partners.sort(
		(a, b) => failedSpeechSinceJune(ai, b).length - failedSpeechSinceJune(ai, a).length,
	)[0];
}

/** Face matches of a PID: those of the clusters of the PID's face tasks. */
function matchesOfPid(ai: AiDataset, pid: string): AiRecord[] {
	const clusters = new Set(
		ai
			.records('face_tasks')
			.filter((each) => each.pid === pid)
			.flatMap((each) =>
				Array.isArray(each.cluster_uuids) ? (each.cluster_uuids as unknown[]).map(String) : [],
			),
	);
	return ai.records('face_matches').filter((each) => clusters.has(String(each.cluster_uuid)));
}

/** Two PIDs with matches on both sides of the score threshold, so the filter visibly drops some. */
function pidsWithStrongAndWeakMatches(ai: AiDataset): string[] {
	const pids = [...new Set(ai.records('face_tasks').map((each) => String(each.pid)))].sort();
	const chosen = pids.filter((pid) => {
		const scores = matchesOfPid(ai, pid).map((each) => Number(each.match_score));
		return (
			scores.some((score) => score >= MIN_MATCH_SCORE) &&
			scores.some((score) => score < MIN_MATCH_SCORE)
		);
	});
	if (chosen.length < 2)
		throw new Error('fewer than two PIDs with strong and weak face matches in the emulator data');
	return chosen.slice(0, 2);
}

// The README example keeps the default Output (Simplified); the key uses the wiki id, as the example's summary does.
function matchKey(row: Record<string, unknown>): string {
	return `${String(row.pid)}|${String(row.cluster_uuid)}|${String(row.refset_person_wiki_id)}|${String(row.matched_time)}`;
}

/** A Code node that turns each input item's binary properties into their text. */
function binaryAsText(name: string): WorkflowNode {
	return code(
		name,
		[
			'const out = [];',
			'for (let i = 0; i < $input.all().length; i++) {',
			'  const texts = {};',
			'  for (const key of Object.keys($input.all()[i].binary ?? {})) {',
			"    texts[key] = (await this.helpers.getBinaryDataBuffer(i, key)).toString('utf8');",
			'  }',
			'  out.push({ json: texts });',
			'}',
			'return out;',
		].join('\n'),
	);
}

function aiNode(name: string, parameters: Record<string, unknown>): WorkflowNode {
	return node(name, PACKAGE_NODE_TYPES.aiMetadata, parameters, {
		credentials: { archiveAiMetadataApi: DEMO_CREDENTIALS.ai },
	});
}

/** README's Example 2: hourly export of newly processed speech tasks to CSV files in `exportDir`. */
function triggerExportWorkflow(exportDir: string): WorkflowJson {
	const trigger = node(
		'New Speech Tasks',
		PACKAGE_NODE_TYPES.aiMetadataTrigger,
		{
			pollTimes: { item: [{ mode: 'everyHour', minute: 0 }] },
			view: 'speech_tasks',
			statuses: ['succeeded'],
			output: 'simplified',
			options: { startFrom: EXPORT_START_FROM },
		},
		{ credentials: { archiveAiMetadataApi: DEMO_CREDENTIALS.ai } },
	);
	const toCsv = node(
		'To CSV',
		'n8n-nodes-base.convertToFile',
		{ operation: 'csv', options: { fileName: 'speech-tasks.csv' } },
		{ typeVersion: 1.1 },
	);
	const write = node(
		'Write Export File',
		'n8n-nodes-base.readWriteFile',
		{
			operation: 'write',
			fileName: `=${exportDir}/speech-tasks-{{ $now.toFormat('yyyyMMdd-HHmmss') }}.csv`,
			dataPropertyName: 'data',
			options: {},
		},
		{ typeVersion: 1 },
	);
	return chainWorkflow('README Example 2: hourly export of new AI metadata to CSV', [
		trigger,
		toCsv,
		write,
	]);
}

interface MoreExamplesInput {
	failingCp: string;
	matchPids: string[];
	srtTask: AiRecord;
	queryCp: string;
	taskCp: string;
}

const CUSTOM_QUERY =
	'query ($cp: String!) { speech_tasks(where: {cp: {_eq: $cp}}, limit: 5) { task_id title } }';

/** README's "More examples", one branch each, with parameters as the bullets spell them. */
function moreExamplesWorkflow(input: MoreExamplesInput): WorkflowJson {
	const trigger = manualTrigger();
	const failed = aiNode('Failed Speech Tasks of one CP', {
		resource: 'speechTask',
		operation: 'getAll',
		returnAll: true,
		filters: { status: ['failed'], contentPartner: [input.failingCp], timeFrom: TIME_FROM },
	});
	// Stands in for the Spreadsheet node with a pid column.
	const pidList = code(
		'PID List',
		`return ${JSON.stringify(input.matchPids)}.map((pid) => ({ json: { pid } }));`,
	);
	const matches = aiNode('Matches above 0.9', {
		resource: 'faceMatch',
		operation: 'getByPid',
		pid: '={{ $json.pid }}',
		filters: { minMatchScore: MIN_MATCH_SCORE },
	});
	const srtInput = setFields('SRT Task', { task_id: String(input.srtTask.task_id) });
	const srt = aiNode('SRT as File', {
		resource: 'speechTask',
		operation: 'downloadFiles',
		taskId: { __rl: true, mode: 'id', value: '={{ $json.task_id }}' },
		files: ['transcript_srt'],
	});
	const srtText = binaryAsText('SRT Text');
	const customQuery = aiNode('Custom Query', {
		resource: 'customQuery',
		operation: 'execute',
		query: CUSTOM_QUERY,
		variables: JSON.stringify({ cp: input.queryCp }),
	});
	const taskInput = setFields('Task of a CP', { cp: input.taskCp });
	const partner = node(
		'Content Partner of Task',
		PACKAGE_NODE_TYPES.organization,
		{
			resource: 'contentPartner',
			operation: 'get',
			contentPartner: { __rl: true, mode: 'id', value: '={{ $json.cp }}' },
			output: 'simplified',
			options: { flatten: true },
		},
		{ credentials: { archiveOrganizationApi: DEMO_CREDENTIALS.org } },
	);
	return graphWorkflow(
		'e2e README more examples',
		[trigger, failed, pidList, matches, srtInput, srt, srtText, customQuery, taskInput, partner],
		[
			{ from: trigger.name, to: failed.name },
			{ from: trigger.name, to: pidList.name },
			{ from: pidList.name, to: matches.name },
			{ from: trigger.name, to: srtInput.name },
			{ from: srtInput.name, to: srt.name },
			{ from: srt.name, to: srtText.name },
			{ from: trigger.name, to: customQuery.name },
			{ from: trigger.name, to: taskInput.name },
			{ from: taskInput.name, to: partner.name },
		],
		{ settings: { timezone: WORKFLOW_TIMEZONE } },
	);
}

describeIfPackageBuilt(
	pkg,
	'ArchiveAiMetadata',
	'ArchiveAiMetadataTrigger',
	'ArchiveOrganization',
).each(selectedN8nVersions())('README examples in n8n %s', (version) => {
	let sandbox: Sandbox;
	let ai: AiDataset;
	let org: OrgDataset;
	let exportDir: string;
	let n8n: N8nInstance;
	let input: MoreExamplesInput;
	let moreRun: RunExecutionData;
	let exportExecutions: ExecutionRecord[];

	beforeAll(async () => {
		sandbox = await startSandbox({ rows: ROWS, seed: SEED });
		ai = sandbox.data.ai;
		org = sandbox.data.org;
		exportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-readme-export-'));
		// 2.x writes files only where this allows.
		n8n = await N8nInstance.create({
			version,
			...pkg,
			env: { N8N_RESTRICT_FILE_ACCESS_TO: exportDir },
		});
		await n8n.importCredentials(demoCredentials(sandbox, generateSecret(32)));

		const speech = ai.records('speech_tasks');
		input = {
			failingCp: busiestFailingPartner(ai),
			matchPids: pidsWithStrongAndWeakMatches(ai),
			srtTask: speech
				.filter((each) => each.status === 'succeeded')
				.sort((a, b) => byText(a.task_id, b.task_id))[0],
			queryCp: String(speech[0].cp),
			taskCp: String(speech[1].cp),
		};
		const more = moreExamplesWorkflow(input);
		const exporter = triggerExportWorkflow(exportDir);
		await n8n.importWorkflows([more, exporter]);
		moreRun = (await n8n.execute(more.id)).run.data;

		await n8n.activate(exporter.id, exporter.name);
		await n8n.start();
		// n8n polls once on activation: the export's first run needs no waiting for the hour.
		exportExecutions = await n8n.waitForExecutions(exporter.id, 1);
	});

	afterAll(async () => {
		await n8n?.dispose();
		await sandbox?.close();
		if (exportDir) fs.rmSync(exportDir, { recursive: true, force: true });
	});

	describe('Example 2: scheduled export of new AI metadata', () => {
		it("turns the first poll's speech tasks into speech-tasks.csv", () => {
			const [execution] = exportExecutions;
			const [file] = nodeItems(execution.data!, 'To CSV');

			expect(execution).toMatchObject({ mode: 'trigger', status: 'success' });
			expect(file.binary?.data).toMatchObject({
				fileName: 'speech-tasks.csv',
				fileExtension: 'csv',
			});
		});

		it('writes one CSV row per succeeded speech task since Start From, in poll order', () => {
			const files = fs.readdirSync(exportDir);
			const expected = exportedTaskIds(ai);

			expect(files).toEqual([expect.stringMatching(/^speech-tasks-\d{8}-\d{6}\.csv$/)]);
			// Convert to File may start the CSV with a byte order mark (2.x does), for spreadsheet programs.
			const text = fs.readFileSync(path.join(exportDir, files[0]), 'utf8').replace(/^\uFEFF/, '');
			const [header, ...rows] = parseCsv(text).filter((row) => row.join('') !== '');
			const taskIdColumn = header.indexOf('task_id');
			expect(expected.length).toBeGreaterThan(3);
			expect(header).toEqual(
				expect.arrayContaining(['task_id', 'pid', 'cp', 'status', 'processed_time', 'title']),
			);
			expect(rows.map((row) => row[taskIdColumn])).toEqual(expected);
			expect(rows.every((row) => row[header.indexOf('status')] === 'succeeded')).toBe(true);
		});
	});

	describe('More examples', () => {
		it('gets all failed speech tasks of one content partner since June', () => {
			const expected = failedSpeechSinceJune(ai, input.failingCp)
				.map((each) => each.task_id)
				.sort(byText);
			const partnerTasks = ai.records('speech_tasks').filter((each) => each.cp === input.failingCp);
			const rows = nodeJson(moreRun, 'Failed Speech Tasks of one CP');

			expect(expected.length).toBeGreaterThan(0);
			// Each filter drops rows: earlier failures and later successes of the same partner exist.
			expect(
				partnerTasks.some((each) => each.status === 'failed' && timeOf(each) < TIME_FROM_UTC),
			).toBe(true);
			expect(
				partnerTasks.some((each) => each.status !== 'failed' && timeOf(each) >= TIME_FROM_UTC),
			).toBe(true);
			expect(rows.map((each) => each.task_id).sort(byText)).toEqual(expected);
		});

		it('gets the face matches above 0.9 of each PID, each tagged with its PID and paired to its input', () => {
			const items = nodeItems(moreRun, 'Matches above 0.9');
			const expected = input.matchPids.flatMap((pid, index) =>
				matchesOfPid(ai, pid)
					.filter((each) => Number(each.match_score) >= MIN_MATCH_SCORE)
					.map((each) => ({ key: matchKey({ ...each, pid }), pairedItem: { item: index } })),
			);

			expect(expected.length).toBeGreaterThan(0);
			expect(
				items
					.map((each) => ({ key: matchKey(each.json), pairedItem: each.pairedItem }))
					.sort((a, b) => byText(a.key, b.key)),
			).toEqual(expected.sort((a, b) => byText(a.key, b.key)));
			expect(items.every((each) => Number(each.json.match_score) >= MIN_MATCH_SCORE)).toBe(true);
		});

		it("downloads a task's SRT as the binary property transcript_srt", () => {
			const [item] = nodeItems(moreRun, 'SRT as File');

			expect(Object.keys(item.binary ?? {})).toEqual(['transcript_srt']);
			expect(nodeJson(moreRun, 'SRT Text')).toEqual([
				{ transcript_srt: input.srtTask.transcript_srt },
			]);
		});

		it('runs the custom query with its variables', () => {
			const ofPartner = new Map(
				ai
					.records('speech_tasks')
					.filter((each) => each.cp === input.queryCp)
					.map((each) => [String(each.task_id), each.title]),
			);
			const [result] = nodeJson(moreRun, 'Custom Query');
			const tasks = result.speech_tasks as Array<{ task_id: string; title: unknown }>;

			expect(ofPartner.size).toBeGreaterThan(5);
			expect(Object.keys(result)).toEqual(['speech_tasks']);
			expect(tasks).toHaveLength(5);
			expect(tasks.filter((task) => !ofPartner.has(task.task_id))).toEqual([]);
			for (const task of tasks)
				expect(task).toEqual({ task_id: task.task_id, title: ofPartner.get(task.task_id) });
		});

		it('gets the content partner of a task with address and contact flattened', () => {
			const partner = contentPartnerOf(org, input.taskCp);
			const address = partner.primary_site!.address;
			const [row] = nodeJson(moreRun, 'Content Partner of Task');

			expect(row).toMatchObject({
				id: partner.id,
				label: partner.label,
				address_street: address.street,
				address_locality: address.locality,
				contact_email: mainContactEmail(partner),
			});
			expect(row).not.toHaveProperty('primary_site');
			expect(row).not.toHaveProperty('contact_point');
		});
	});
});
