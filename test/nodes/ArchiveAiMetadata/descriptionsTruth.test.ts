import type { INodeProperties } from 'n8n-workflow';

import { ArchiveAiMetadata } from '../../../nodes/ArchiveAiMetadata/ArchiveAiMetadata.node';
import { ArchiveAiMetadataTrigger } from '../../../nodes/ArchiveAiMetadata/ArchiveAiMetadataTrigger.node';
import { PollHarness } from '../../../dev/harness/poll';
import { aiCredentials } from '../../../dev/harness/sandboxCredentials';
import { useSandbox } from '../../../dev/harness/sandboxFixture';
import { jsonOf, runAi } from './helpers';
import { AI_VIEW_KEYS, AI_VIEWS } from '../../../nodes/ArchiveAiMetadata/api/views';
import { labelOf } from '../../../nodes/shared/n8n/english';

/** What the descriptions promise about Simplified output is what the nodes return, view by view. */
const sandbox = useSandbox({ rows: 60 });

/** Simplified's description on the Output parameter shown for this resource (action) or view (trigger). */
function simplifiedDescription(properties: INodeProperties[], show: string, value: string): string {
	const output = properties.find(
		(property) =>
			property.name === 'output' &&
			(property.displayOptions?.show?.[show] as string[] | undefined)?.includes(value),
	);
	const simplified = (output?.options as Array<{ value: string; description: string }>).find(
		(option) => option.value === 'simplified',
	);
	return simplified?.description ?? '';
}

/** "Task ID, PID and Error" -> the labels it names. */
function namedLabels(description: string): string[] {
	return description.split(/, | and /);
}

const VIEWS = AI_VIEW_KEYS.map((key) => AI_VIEWS[key]);

describe('Output Simplified holds exactly the columns its description names', () => {
	it.each(VIEWS.map((view) => [view.resource, view] as const))(
		'action, %s: Get Many',
		async (resource, view) => {
			const description = simplifiedDescription(
				new ArchiveAiMetadata().description.properties,
				'resource',
				resource,
			);
			expect(namedLabels(description)).toEqual(view.simplifiedColumns.map(labelOf));
			const result = await runAi(sandbox(), {
				resource,
				operation: 'getAll',
				limit: 5,
				output: 'simplified',
			});
			expect(result.error).toBeUndefined();
			const rows = jsonOf(result);
			expect(rows.length).toBeGreaterThan(0);
			for (const row of rows)
				expect(Object.keys(row).map(labelOf)).toEqual(namedLabels(description));
		},
	);

	it.each(VIEWS.map((view) => view.key))('trigger, %s', async (key) => {
		const description = simplifiedDescription(
			new ArchiveAiMetadataTrigger().description.properties,
			'view',
			key,
		);
		const trigger = new PollHarness({
			nodeType: new ArchiveAiMetadataTrigger(),
			parameters: { view: key, statuses: [] },
			credentials: aiCredentials(sandbox()),
		});
		const outcome = await trigger.poll({ mode: 'manual' });
		expect(outcome.error).toBeUndefined();
		const rows = (outcome.items?.[0] ?? []).map((item) => item.json);
		expect(rows.length).toBeGreaterThan(0);
		for (const row of rows)
			expect(Object.keys(row).map(labelOf).sort()).toEqual(namedLabels(description).sort());
	});
});
