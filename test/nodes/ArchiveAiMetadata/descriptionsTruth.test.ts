import type { INodeProperties } from 'n8n-workflow';

import { ArchiveAiMetadata } from '../../../nodes/ArchiveAiMetadata/ArchiveAiMetadata.node';
import { ArchiveAiMetadataTrigger } from '../../../nodes/ArchiveAiMetadata/ArchiveAiMetadataTrigger.node';
import { PollHarness } from '../../../dev/harness/poll';
import { aiCredentials } from '../../../dev/harness/sandboxCredentials';
import { useSandbox } from '../../../dev/harness/sandboxFixture';
import { jsonOf, runAi } from './helpers';

/** What the descriptions promise about simplified output is what the nodes return. */
const sandbox = useSandbox({ rows: 60 });

const RAW_JSON = [
	'processed_json',
	'extractor_json',
	'transcript_json',
	'audio_classification_json',
	'statistics',
];
const LISTS = [
	'cluster_uuids',
	'n_faces_per_frame',
	'n_persons_per_frame',
	'time_intervals',
	'public_links',
];

function findOption(properties: INodeProperties[], name: string): INodeProperties | undefined {
	for (const property of properties) {
		if (property.name === name) return property;
		const nested = findOption(
			(property.options ?? []).filter((option): option is INodeProperties => 'type' in option),
			name,
		);
		if (nested) return nested;
	}
	return undefined;
}

describe('descriptions promise only what the code does', () => {
	it('Output Simplified says, in the action node and the trigger, that it leaves out raw JSON and list columns', () => {
		for (const properties of [
			new ArchiveAiMetadata().description.properties,
			new ArchiveAiMetadataTrigger().description.properties,
		]) {
			const output = findOption(properties, 'output');
			const simplified = (output?.options as Array<{ value: string; description: string }>).find(
				(option) => option.value === 'simplified',
			);
			expect(simplified?.description).toMatch(/without raw JSON outputs and list columns/);
		}
	});

	it.each(['faceTask', 'faceMatch', 'refsetPerson', 'speechTask', 'nerTask'])(
		'%s with Output Simplified has no raw JSON or list column',
		async (resource) => {
			const result = await runAi(sandbox(), {
				resource,
				operation: 'getAll',
				limit: 5,
				output: 'simplified',
			});
			expect(result.error).toBeUndefined();
			const keys = new Set(jsonOf(result).flatMap((row) => Object.keys(row)));
			expect(keys.size).toBeGreaterThan(3);
			expect([...keys].filter((key) => RAW_JSON.includes(key) || LISTS.includes(key))).toEqual([]);
		},
	);

	it.each(['face_tasks', 'face_matches', 'refset_persons', 'speech_tasks', 'ner_tasks'])(
		'trigger on %s with Simplified fields has no raw JSON or list column',
		async (view) => {
			const trigger = new PollHarness({
				nodeType: new ArchiveAiMetadataTrigger(),
				parameters: { view, statuses: [] },
				credentials: aiCredentials(sandbox()),
			});
			const outcome = await trigger.poll({ mode: 'manual' });
			expect(outcome.error).toBeUndefined();
			const keys = Object.keys(outcome.items?.[0][0].json ?? {});
			expect(keys.length).toBeGreaterThan(3);
			expect(keys.filter((key) => RAW_JSON.includes(key) || LISTS.includes(key))).toEqual([]);
		},
	);
});
