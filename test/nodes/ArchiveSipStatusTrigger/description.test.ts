import { NodeHelpers, Workflow, type INode, type INodeTypes } from 'n8n-workflow';

import { ArchiveSipWebhookApi } from '../../../credentials/ArchiveSipWebhookApi.credentials';
import { ArchiveSipStatusTrigger } from '../../../nodes/ArchiveSipStatusTrigger/ArchiveSipStatusTrigger.node';
import codex from '../../../nodes/ArchiveSipStatusTrigger/ArchiveSipStatusTrigger.node.json';
import { NODE_TYPE_NAME } from '../../../dev/emulators/webhook/fixtures';

const nodeType = new ArchiveSipStatusTrigger();

function workflowWith(parameters: INode['parameters']): Workflow {
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const node: INode = {
		id: 'n1',
		name: 'Trigger',
		type: NODE_TYPE_NAME,
		typeVersion: 2,
		position: [0, 0],
		parameters,
	};
	return new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
}

function outputsFor(parameters: INode['parameters']) {
	const workflow = workflowWith(parameters);
	return NodeHelpers.getNodeOutputs(workflow, workflow.getNode('Trigger')!, nodeType.description);
}

/** The webhook's response mode as n8n evaluates it per request (webhook-helpers.js evaluateResponseOptions). */
function responseModeFor(parameters: INode['parameters']) {
	const workflow = workflowWith(parameters);
	const responseMode = nodeType.description.webhooks![0].responseMode as string;
	return workflow.expression.getSimpleParameterValue(
		workflow.getNode('Trigger')!,
		responseMode,
		'webhook',
		{},
		undefined,
		'onReceived',
	);
}

describe('node description', () => {
	it('has one output by default and Success/Failure outputs per outcome (evaluated by n8n)', () => {
		expect(outputsFor({})).toEqual([{ type: 'main' }]);
		expect(outputsFor({ outputMode: 'perOutcome' })).toEqual([
			{ type: 'main', displayName: 'Success' },
			{ type: 'main', displayName: 'Failure' },
		]);
	});

	it('adds a last output "Filtered Out" when the option is on (evaluated by n8n)', () => {
		expect(outputsFor({ options: { sendFilteredOut: true } })).toEqual([
			{ type: 'main' },
			{ type: 'main', displayName: 'Filtered Out' },
		]);
		expect(outputsFor({ outputMode: 'perOutcome', options: { sendFilteredOut: true } })).toEqual([
			{ type: 'main', displayName: 'Success' },
			{ type: 'main', displayName: 'Failure' },
			{ type: 'main', displayName: 'Filtered Out' },
		]);
		expect(outputsFor({ options: { sendFilteredOut: false } })).toEqual([{ type: 'main' }]);
	});

	it('accepts every event type by default and offers the type the archive is known to send', () => {
		const eventTypes = nodeType.description.properties.find(
			(property) => property.name === 'eventTypes',
		);
		expect(eventTypes?.default).toBe('any');
		expect(eventTypes?.options?.map((option) => ('value' in option ? option.value : ''))).toEqual([
			'any',
			'sipArchived',
			'custom',
		]);
	});

	it('exposes a POST webhook n8n answers 204 without a body (Immediately), and is not a tool', () => {
		const description = nodeType.description;
		expect(description.webhooks).toHaveLength(1);
		expect({ ...description.webhooks![0] }).toMatchObject({
			name: 'default',
			httpMethod: 'POST',
			responseMode: expect.any(String),
			responseCode: '={{204}}',
			responseData: 'noData',
			path: 'sip-status',
		});
		expect(
			workflowWith({}).expression.getSimpleParameterValue(
				workflowWith({}).getNode('Trigger')!,
				description.webhooks![0].responseCode as string,
				'webhook',
				{},
			),
		).toBe(204);
		expect(description.usableAsTool).toBeUndefined();
		expect(description.group).toEqual(['trigger']);
		expect(
			description.properties.find((property) => property.type === 'notice')?.displayName,
		).toMatch(/Production URL/);
	});

	it('answers on receipt by default and from the saved execution with Respond: After the Event Is Saved', () => {
		expect(responseModeFor({})).toBe('onReceived');
		expect(responseModeFor({ respond: 'immediately' })).toBe('onReceived');
		expect(responseModeFor({ respond: 'afterSaved' })).toBe('responseNode');
		const respond = nodeType.description.properties.find((property) => property.name === 'respond');
		expect(respond).toMatchObject({ type: 'options', default: 'immediately' });
	});

	it('declares native resolvers (n8n 2.x skips its expression isolate) that give what n8n evaluates', () => {
		const webhook = nodeType.description.webhooks![0] as unknown as Record<
			string | symbol,
			unknown
		>;
		const resolvers = webhook[Symbol.for('n8n.webhookDescriptionResolvers')] as Record<
			string,
			{ template: string; resolve: (parameters: INode['parameters']) => unknown }
		>;
		expect(Object.keys(resolvers).sort()).toEqual(['responseCode', 'responseMode']);
		for (const [field, resolver] of Object.entries(resolvers)) {
			// n8n uses a resolver only while its template is the field's value.
			expect(resolver.template).toBe(webhook[field]);
			for (const parameters of [{}, { respond: 'immediately' }, { respond: 'afterSaved' }]) {
				const workflow = workflowWith(parameters);
				const evaluated = workflow.expression.getSimpleParameterValue(
					workflow.getNode('Trigger')!,
					resolver.template,
					'webhook',
					{},
				);
				expect(resolver.resolve(workflow.getNode('Trigger')!.parameters)).toBe(evaluated);
			}
		}
	});

	it('is tested by its own credential test, and the credential names it', () => {
		expect(nodeType.description.credentials).toEqual([
			{
				name: new ArchiveSipWebhookApi().name,
				required: true,
				testedBy: 'archiveSipWebhookSecretTest',
			},
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
