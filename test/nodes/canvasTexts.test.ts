import { Workflow } from 'n8n-workflow';
import type { INodeType, INodeTypes, INodePropertyOptions } from 'n8n-workflow';

import { ArchiveAiMetadata } from '../../nodes/ArchiveAiMetadata/ArchiveAiMetadata.node';
import { ArchiveOrganization } from '../../nodes/ArchiveOrganization/ArchiveOrganization.node';

/**
 * What the canvas and the action list show: the subtitle under a node, evaluated by n8n's own expression engine as
 * the editor does, and the action names (which also become a new node's name).
 */

function subtitleOf(
	nodeType: INodeType,
	parameters: { resource: string; operation: string },
): string {
	const type = 'n8n-nodes-archive-services.node';
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const node = {
		id: 'node',
		name: 'Node',
		type,
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters,
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return String(
		workflow.expression.getSimpleParameterValue(node, nodeType.description.subtitle, 'manual', {}),
	);
}

function actionsOf(nodeType: INodeType, resource: string): string[] {
	return nodeType.description.properties
		.filter(
			(property) =>
				property.name === 'operation' &&
				property.displayOptions?.show?.resource?.includes(resource),
		)
		.flatMap((property) =>
			(property.options as INodePropertyOptions[]).map((option) => option.action ?? ''),
		);
}

describe('canvas subtitles name the operation and resource in words', () => {
	it.each([
		['AI Metadata', 'speechTask', 'getAll', 'Get Many: Speech Task'],
		['AI Metadata', 'nerTask', 'getByPid', 'Get by PID: NER Task'],
		['AI Metadata', 'customQuery', 'execute', 'Execute: Custom Query'],
		['Organization', 'contentPartner', 'get', 'Get: Content Partner'],
		['Organization', 'person', 'getAll', 'Get Many: Person'],
	])('%s, %s %s reads "%s"', (node, resource, operation, expected) => {
		const nodeType = node === 'AI Metadata' ? new ArchiveAiMetadata() : new ArchiveOrganization();
		expect(subtitleOf(nodeType, { resource, operation })).toBe(expected);
	});
});

describe('action names read as English', () => {
	it.each([
		[
			'imageTask',
			['Count image tasks', 'Get an image task', 'Get many image tasks', 'Get image tasks by PID'],
		],
		['faceMatch', ['Count face matches', 'Get many face matches', 'Get face matches by PID']],
		['imageMatch', ['Count image matches', 'Get many image matches', 'Get image matches by PID']],
		[
			'refsetPerson',
			[
				'Count reference-set persons',
				'Get a reference-set person',
				'Get many reference-set persons',
			],
		],
		[
			'nerTask',
			[
				'Count NER tasks',
				'Download files of an NER task',
				'Get an NER task',
				'Get many NER tasks',
				'Get NER tasks by PID',
			],
		],
	])('AI Metadata, %s', (resource, expected) => {
		expect(actionsOf(new ArchiveAiMetadata(), resource)).toEqual(expected);
	});

	it('Organization', () => {
		expect(actionsOf(new ArchiveOrganization(), 'organization')).toEqual([
			'Get an organization',
			'Get many organizations',
		]);
	});
});
