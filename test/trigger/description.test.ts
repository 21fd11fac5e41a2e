import { NodeHelpers, Workflow, type INode, type INodeTypes } from 'n8n-workflow';

import { ArchiveSipWebhookApi } from '../../credentials/ArchiveSipWebhookApi.credentials';
import { ArchiveSipStatusTrigger } from '../../nodes/ArchiveSipStatusTrigger/ArchiveSipStatusTrigger.node';
import codex from '../../nodes/ArchiveSipStatusTrigger/ArchiveSipStatusTrigger.node.json';
import { NODE_TYPE_NAME } from './fixtures';

const nodeType = new ArchiveSipStatusTrigger();

function outputsFor(parameters: INode['parameters']) {
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const node: INode = {
		id: 'n1',
		name: 'Trigger',
		type: NODE_TYPE_NAME,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return NodeHelpers.getNodeOutputs(workflow, workflow.getNode('Trigger')!, nodeType.description);
}

describe('node description', () => {
	it('has one output by default and Success/Failure outputs per outcome (evaluated by n8n)', () => {
		expect(outputsFor({})).toEqual([{ type: 'main' }]);
		expect(outputsFor({ outputMode: 'perOutcome' })).toEqual([
			{ type: 'main', displayName: 'Success' },
			{ type: 'main', displayName: 'Failure' },
		]);
	});

	it('exposes a POST webhook answered by the node itself, and is not a tool', () => {
		const description = nodeType.description;
		expect(description.webhooks).toEqual([
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'sip-status' },
		]);
		expect(description.usableAsTool).toBeUndefined();
		expect(description.group).toEqual(['trigger']);
		expect(description.properties.find((property) => property.type === 'notice')?.displayName).toMatch(/register/i);
	});

	it('is tested by its own credential test, and the credential names it', () => {
		expect(nodeType.description.credentials).toEqual([
			{ name: new ArchiveSipWebhookApi().name, required: true, testedBy: 'archiveSipWebhookSecretTest' },
		]);
		expect(Object.keys(nodeType.methods.credentialTest)).toEqual(['archiveSipWebhookSecretTest']);
	});

	it('keeps secrets in password fields', () => {
		const properties = new ArchiveSipWebhookApi().properties;
		expect(properties.map((property) => [property.name, property.typeOptions?.password])).toEqual([
			['signingSecret', true],
			['additionalSecrets', true],
		]);
	});

	it('has a codex file for this node', () => {
		expect(codex.node).toBe(NODE_TYPE_NAME);
		expect(codex.resources.primaryDocumentation[0].url).toBe(nodeType.description.documentationUrl);
	});
});
