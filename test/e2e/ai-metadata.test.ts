import { startSandbox, type AiDataset, type AiRecord, type Sandbox } from '../../dev/emulators';
import { issuedAccessTokens, startForwardingProxy } from '../../dev/n8n/http';
import { selectedN8nVersions } from '../../dev/n8n/install';
import { N8nInstance } from '../../dev/n8n/n8n';
import { describeIfPackageBuilt, newCredentialId, packageUnderTest } from '../../dev/n8n/package';
import { nodeItems, nodeJson, type RunExecutionData } from '../../dev/n8n/run-data';
import {
	code,
	graphWorkflow,
	manualTrigger,
	node,
	PACKAGE_NODE_TYPES,
	type CredentialRef,
	type Edge,
	type WorkflowNode,
} from '../../dev/n8n/workflows';

// Every Archive AI Metadata operation in real n8n against the AI metadata emulator, batched into
// one workflow per emulator flavour: the documented names with inline raw output, and the names of
// the live API (face_image_*, a vendor-named NER column) with raw output as presigned paths.

const pkg = packageUnderTest();
const ROWS = 200;
const MISSING_TASK_ID = '00000000-0000-4000-8000-000000000000';

type Flavour = 'seed' | 'live';

function byColumn(column: string) {
	return (a: AiRecord, b: AiRecord) => {
		const left = String(a[column]);
		const right = String(b[column]);
		return left < right ? -1 : left > right ? 1 : 0;
	};
}

/** Most cases compare whole rows with the emulator's, so Output is Raw unless the case sets it. */
function aiNode(
	name: string,
	credential: CredentialRef,
	parameters: Record<string, unknown>,
	onError?: WorkflowNode['onError'],
) {
	return node(
		name,
		PACKAGE_NODE_TYPES.aiMetadata,
		{ output: 'raw', ...parameters },
		{
			credentials: { archiveAiMetadataApi: credential },
			onError,
		},
	);
}

/** A Code node that turns each input item's binary properties into their text, so tests can compare contents. */
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

describeIfPackageBuilt(pkg, 'ArchiveAiMetadata')('Archive AI Metadata in real n8n', () => {
	const sandboxes = {} as Record<Flavour, Sandbox>;
	let tokenProxy: Awaited<ReturnType<typeof startForwardingProxy>>;

	beforeAll(async () => {
		sandboxes.seed = await startSandbox({ rows: ROWS, seed: 11 });
		sandboxes.live = await startSandbox({
			rows: ROWS,
			seed: 12,
			aiNaming: 'live',
			aiRawStorage: 'paths',
			aiAggregates: false,
		});
		tokenProxy = await startForwardingProxy(sandboxes.seed.ai.baseUrl);
	});

	afterAll(async () => {
		await tokenProxy?.close();
		await Promise.all(Object.values(sandboxes).map((each) => each.close()));
	});

	describe.each(selectedN8nVersions())('n8n %s', (version) => {
		const seedCredential: CredentialRef = { id: newCredentialId(), name: 'e2e AI (seed names)' };
		const liveCredential: CredentialRef = { id: newCredentialId(), name: 'e2e AI (live names)' };
		let n8n: N8nInstance;
		let seedRun: RunExecutionData;
		let liveRun: RunExecutionData;
		let exchangesBefore: number;
		let seed: AiDataset;
		let live: AiDataset;

		beforeAll(async () => {
			seed = sandboxes.seed.data.ai;
			live = sandboxes.live.data.ai;
			exchangesBefore = tokenProxy.exchanges.length;
			n8n = await N8nInstance.create({ version, ...pkg });
			const base = {
				email: sandboxes.seed.ai.email,
				password: sandboxes.seed.ai.password,
				// The emulators listen on loopback, so Download Files needs private addresses allowed.
				allowPrivateAddresses: true,
			};
			await n8n.importCredentials([
				{
					...seedCredential,
					type: 'archiveAiMetadataApi',
					data: {
						...base,
						authUrl: `${tokenProxy.url}/auth`,
						graphqlUrl: sandboxes.seed.ai.graphqlUrl,
					},
				},
				{
					...liveCredential,
					type: 'archiveAiMetadataApi',
					data: {
						...base,
						authUrl: sandboxes.live.ai.authUrl,
						graphqlUrl: sandboxes.live.ai.graphqlUrl,
					},
				},
			]);
			const seedWorkflow = seedNamesWorkflow(seedCredential, seed);
			const liveWorkflow = liveNamesWorkflow(liveCredential, live);
			await n8n.importWorkflows([seedWorkflow, liveWorkflow]);
			seedRun = (await n8n.execute(seedWorkflow.id)).run.data;
			liveRun = (await n8n.execute(liveWorkflow.id)).run.data;
		});

		afterAll(async () => {
			await n8n?.dispose();
		});

		it('gets one face task by task id, exactly as the API holds it', () => {
			const task = succeededFaceTasks(seed)[0];

			expect(nodeJson(seedRun, 'Face Task by ID')).toEqual([task]);
		});

		it('gets many face tasks filtered by status and content partner, in task id order', () => {
			const cp = String(seed.records('face_tasks')[0].cp);
			const expected = succeededFaceTasks(seed)
				.filter((each) => each.cp === cp)
				.slice(0, 4)
				.map((each) => each.task_id);

			expect(nodeJson(seedRun, 'Face Tasks of one CP').map((each) => each.task_id)).toEqual(
				expected,
			);
		});

		it('returns every image task across pages, with selected fields only', () => {
			const rows = nodeJson(seedRun, 'All Image Tasks');

			expect(rows).toHaveLength(ROWS);
			expect(rows.map((each) => each.task_id)).toEqual(
				seed
					.records('image_tasks')
					.sort(byColumn('task_id'))
					.map((each) => each.task_id),
			);
			expect(Object.keys(rows[0]).sort()).toEqual(['pid', 'status', 'task_id']);
		});

		it('counts failed face tasks', () => {
			const failed = seed.records('face_tasks').filter((each) => each.status === 'failed').length;

			expect(failed).toBeGreaterThan(0);
			expect(nodeJson(seedRun, 'Count Failed Face Tasks')).toEqual([
				{ view: 'face_tasks', count: failed },
			]);
		});

		it('filters face matches by score with an advanced Hasura filter', () => {
			const expected = seed
				.records('face_matches')
				.filter((each) => Number(each.match_score) >= 0.9)
				.map((each) => `${each.cluster_uuid}/${each.refset_person_id}/${each.matched_time}`)
				.sort();
			const rows = nodeJson(seedRun, 'Strong Face Matches');

			expect(expected.length).toBeGreaterThan(0);
			expect(
				rows
					.map((each) => `${each.cluster_uuid}/${each.refset_person_id}/${each.matched_time}`)
					.sort(),
			).toEqual(expected);
		});

		it('looks up speech tasks per input PID, pairing each output with its input item', () => {
			const pids = lookupPids(seed);
			const items = nodeItems(seedRun, 'Speech Tasks by PID');
			const expected = pids.flatMap((pid, index) =>
				seed
					.records('speech_tasks')
					.filter((each) => each.pid === pid)
					.map((each) => ({ task_id: each.task_id, pairedItem: { item: index } })),
			);

			expect(expected.length).toBeGreaterThan(0);
			expect(
				items
					.map((each) => ({ task_id: each.json.task_id, pairedItem: each.pairedItem }))
					.sort((a, b) => byColumn('task_id')(a, b)),
			).toEqual(expected.sort((a, b) => byColumn('task_id')(a, b)));
		});

		it("finds face matches through their tasks' clusters by PID", () => {
			const rows = nodeJson(seedRun, 'Face Matches by PID');
			const pid = matchedPid(seed);
			const clusters = new Set(
				seed
					.records('face_tasks')
					.filter((each) => each.pid === pid)
					.flatMap((each) =>
						Array.isArray(each.cluster_uuids) ? (each.cluster_uuids as string[]) : [],
					),
			);
			const expected = seed
				.records('face_matches')
				.filter((each) => clusters.has(String(each.cluster_uuid)));

			expect(expected.length).toBeGreaterThan(0);
			expect(rows).toHaveLength(expected.length);
		});

		it('gets a reference-set person by id and searches persons by label', () => {
			const person = seed.records('refset_persons')[3];
			const needle = String(person.label).split(' ')[0];
			const expected = seed
				.records('refset_persons')
				.filter((each) => String(each.label).toLowerCase().includes(needle.toLowerCase()))
				.map((each) => each.id)
				.sort();

			expect(nodeJson(seedRun, 'Refset Person by ID')).toEqual([person]);
			expect(
				nodeJson(seedRun, 'Refset Persons by Label')
					.map((each) => each.id)
					.sort(),
			).toEqual(expected);
		});

		it('returns a speech task with raw JSON parsed, or kept as text when asked', () => {
			const task = succeededSpeechTask(seed);
			const [parsed] = nodeJson(seedRun, 'Speech Task Parsed');
			const [raw] = nodeJson(seedRun, 'Speech Task Raw');

			expect(parsed.transcript_json).toEqual(JSON.parse(String(task.transcript_json)));
			expect(parsed.transcript_srt).toBe(task.transcript_srt);
			expect(raw.transcript_json).toBe(task.transcript_json);
		});

		it("downloads a speech task's transcripts as binary files", () => {
			const task = succeededSpeechTask(seed);
			const [item] = nodeItems(seedRun, 'Download Transcripts');
			const [texts] = nodeJson(seedRun, 'Transcript Texts');

			expect(Object.keys(item.binary ?? {}).sort()).toEqual([
				'file_transcript_srt',
				'file_transcript_vtt',
			]);
			expect(texts).toEqual({
				file_transcript_srt: task.transcript_srt,
				file_transcript_vtt: task.transcript_vtt,
			});
		});

		it('runs a custom query with variables, one item per row', () => {
			const expected = seed
				.records('ner_tasks')
				.sort(byColumn('task_id'))
				.slice(0, 3)
				.map((each) => ({ task_id: each.task_id, status: each.status }));

			expect(nodeJson(seedRun, 'Custom Query')).toEqual(expected);
		});

		it('answers an unknown task id with an error item when asked to stop with an error and set to continue', () => {
			expect(nodeJson(seedRun, 'Missing Face Task')).toEqual([
				expect.objectContaining({ error: expect.stringContaining(MISSING_TASK_ID) }),
			]);
		});

		it('reads the live API names: face_image_tasks and the vendor NER column', () => {
			const images = nodeJson(liveRun, 'Live Image Tasks');
			const ner = succeededNerTask(live);
			const [nerRow] = nodeJson(liveRun, 'Live NER Task');

			expect(images.map((each) => each.task_id)).toEqual(
				live
					.records('face_image_tasks')
					.sort(byColumn('task_id'))
					.slice(0, 5)
					.map((each) => each.task_id),
			);
			expect(Object.keys(nerRow)).toContain('nerengine_json');
			expect(nerRow.task_id).toBe(ner.task_id);
		});

		it('downloads raw output stored as object paths through presigned URLs', () => {
			const ner = succeededNerTask(live);
			const [item] = nodeItems(liveRun, 'Live NER Download');
			const [texts] = nodeJson(liveRun, 'Live NER Texts');

			expect(String(ner.processed_json)).toBe(`${String(ner.task_id)}/processed.json`);
			expect(
				(item.json.files as Array<{ source: string }>).every((each) => each.source === 'presigned'),
			).toBe(true);
			expect(texts.processed_json).toBe(live.fileContent(String(ner.processed_json))?.content);
			expect(texts.nerengine_json).toBe(live.fileContent(String(ner.nerengine_json))?.content);
		});

		it('says that counting is unavailable when the role may not aggregate', () => {
			expect(nodeJson(liveRun, 'Live Count')).toEqual([
				expect.objectContaining({ error: expect.stringMatching(/Counting is not available/) }),
			]);
		});

		it('keeps the password and access tokens out of execution data', async () => {
			const tokens = issuedAccessTokens(tokenProxy.exchanges.slice(exchangesBefore));
			const stored = JSON.stringify([seedRun, liveRun]);
			const credentialsTable = JSON.stringify(
				await n8n.query('SELECT data FROM credentials_entity'),
			);

			expect(tokens.length).toBeGreaterThan(0);
			for (const secret of [sandboxes.seed.ai.password, ...tokens]) {
				expect(stored).not.toContain(secret);
				expect(credentialsTable).not.toContain(secret);
			}
		});
	});
});

function succeededFaceTasks(data: AiDataset): AiRecord[] {
	return data
		.records('face_tasks')
		.filter((each) => each.status === 'succeeded')
		.sort(byColumn('task_id'));
}

function succeededSpeechTask(data: AiDataset): AiRecord {
	return data
		.records('speech_tasks')
		.filter((each) => each.status === 'succeeded')
		.sort(byColumn('task_id'))[0];
}

function succeededNerTask(data: AiDataset): AiRecord {
	return data
		.records('ner_tasks')
		.filter((each) => each.status === 'succeeded')
		.sort(byColumn('task_id'))[0];
}

/** Two PIDs that have speech tasks, plus one that has none. */
function lookupPids(data: AiDataset): string[] {
	const withSpeech = [
		...new Set(data.records('speech_tasks').map((each) => String(each.pid))),
	].sort();
	return [withSpeech[0], withSpeech[1], 'zzzznopidz'];
}

/** A PID of a face task whose clusters have matches. */
function matchedPid(data: AiDataset): string {
	const matched = new Set(data.records('face_matches').map((each) => String(each.cluster_uuid)));
	const task = data
		.records('face_tasks')
		.sort(byColumn('task_id'))
		.find(
			(each) =>
				Array.isArray(each.cluster_uuids) &&
				(each.cluster_uuids as string[]).some((cluster) => matched.has(cluster)),
		);
	if (!task) throw new Error('no face task with matches in the emulator data');
	return String(task.pid);
}

function fanOutGraph(
	name: string,
	nodes: WorkflowNode[],
	extraEdges: Edge[],
	chained: WorkflowNode[],
) {
	const trigger = manualTrigger();
	return graphWorkflow(
		name,
		[trigger, ...nodes, ...chained],
		[...nodes.map((each) => ({ from: trigger.name, to: each.name })), ...extraEdges],
	);
}

function seedNamesWorkflow(credential: CredentialRef, data: AiDataset) {
	const cp = String(data.records('face_tasks')[0].cp);
	const speech = succeededSpeechTask(data);
	const person = data.records('refset_persons')[3];
	const independent = [
		aiNode('Face Task by ID', credential, {
			resource: 'faceTask',
			operation: 'get',
			taskId: succeededFaceTasks(data)[0].task_id,
		}),
		aiNode('Face Tasks of one CP', credential, {
			resource: 'faceTask',
			operation: 'getAll',
			returnAll: false,
			limit: 4,
			filters: { status: 'succeeded', contentPartner: cp },
		}),
		aiNode('All Image Tasks', credential, {
			resource: 'imageTask',
			operation: 'getAll',
			returnAll: true,
			output: 'selected',
			fields: ['task_id', 'pid', 'status'],
			options: { pageSize: 60, maxConcurrency: 2 },
		}),
		aiNode('Count Failed Face Tasks', credential, {
			resource: 'faceTask',
			operation: 'count',
			filters: { status: 'failed' },
		}),
		aiNode('Strong Face Matches', credential, {
			resource: 'faceMatch',
			operation: 'getAll',
			returnAll: true,
			filters: { where: JSON.stringify({ match_score: { _gte: 0.9 } }) },
		}),
		aiNode('Refset Person by ID', credential, {
			resource: 'refsetPerson',
			operation: 'get',
			personId: person.id,
		}),
		aiNode('Refset Persons by Label', credential, {
			resource: 'refsetPerson',
			operation: 'getAll',
			returnAll: true,
			filters: { label: String(person.label).split(' ')[0] },
		}),
		aiNode('Speech Task Parsed', credential, {
			resource: 'speechTask',
			operation: 'get',
			taskId: speech.task_id,
		}),
		aiNode('Speech Task Raw', credential, {
			resource: 'speechTask',
			operation: 'get',
			taskId: speech.task_id,
			options: { keepRawJson: true },
		}),
		aiNode('Download Transcripts', credential, {
			resource: 'speechTask',
			operation: 'downloadFiles',
			taskId: speech.task_id,
			files: ['transcript_srt', 'transcript_vtt'],
			options: { binaryPropertyPrefix: 'file_' },
		}),
		aiNode('Custom Query', credential, {
			resource: 'customQuery',
			operation: 'execute',
			query:
				'query FirstNer($limit: Int!) { ner_tasks(limit: $limit, order_by: [{ task_id: asc }]) { task_id status } }',
			variables: JSON.stringify({ limit: 3 }),
			options: { splitIntoItems: true },
		}),
		aiNode(
			'Missing Face Task',
			credential,
			{
				resource: 'faceTask',
				operation: 'get',
				taskId: MISSING_TASK_ID,
				options: { whenNotFound: 'error' },
			},
			'continueRegularOutput',
		),
	];
	const pids = code(
		'PIDs',
		`return ${JSON.stringify(lookupPids(data))}.map((pid) => ({ json: { pid } }));`,
	);
	const matchPid = code(
		'Matched PID',
		`return [{ json: { pid: ${JSON.stringify(matchedPid(data))} } }];`,
	);
	const chained = [
		aiNode('Speech Tasks by PID', credential, {
			resource: 'speechTask',
			operation: 'getByPid',
			pid: '={{ $json.pid }}',
			output: 'selected',
			fields: ['task_id', 'pid'],
		}),
		aiNode('Face Matches by PID', credential, {
			resource: 'faceMatch',
			operation: 'getByPid',
			pid: '={{ $json.pid }}',
		}),
		binaryAsText('Transcript Texts'),
	];
	return fanOutGraph(
		'e2e AI metadata (seed names)',
		[...independent, pids, matchPid],
		[
			{ from: 'PIDs', to: 'Speech Tasks by PID' },
			{ from: 'Matched PID', to: 'Face Matches by PID' },
			{ from: 'Download Transcripts', to: 'Transcript Texts' },
		],
		chained,
	);
}

function liveNamesWorkflow(credential: CredentialRef, data: AiDataset) {
	const ner = succeededNerTask(data);
	const independent = [
		aiNode('Live Image Tasks', credential, {
			resource: 'imageTask',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
		}),
		aiNode('Live NER Task', credential, {
			resource: 'nerTask',
			operation: 'get',
			taskId: ner.task_id,
		}),
		aiNode('Live NER Download', credential, {
			resource: 'nerTask',
			operation: 'downloadFiles',
			taskId: ner.task_id,
		}),
		aiNode(
			'Live Count',
			credential,
			{ resource: 'faceTask', operation: 'count' },
			'continueRegularOutput',
		),
	];
	return fanOutGraph(
		'e2e AI metadata (live names, object paths)',
		independent,
		[{ from: 'Live NER Download', to: 'Live NER Texts' }],
		[binaryAsText('Live NER Texts')],
	);
}
