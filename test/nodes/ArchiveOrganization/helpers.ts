import { LoadOptionsContext } from 'n8n-core';
import { Workflow } from 'n8n-workflow';
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INode,
	INodeParameters,
	INodeTypes,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { ArchiveOrganization } from '../../../nodes/ArchiveOrganization/ArchiveOrganization.node';
import type { Sandbox } from '../../../dev/emulators';
import type { Person } from '../../../dev/emulators/org/dataset';
import { runNode } from '../../../dev/harness/execute';
import type { NodeRunResult, RunNodeOptions } from '../../../dev/harness/execute';
import type { TestCredentialsHelper } from '../../../dev/harness/credentialsHelper';
import { orgCredentials } from '../../../dev/harness/sandboxCredentials';

export const CREDENTIAL_TYPE = 'archiveOrganizationApi';

/** Scalar fields of the emulated types (documented, plus the real service's `iiif`), as the basic preset selects them. */
export const ORGANIZATION_SCALARS = [
	'iri',
	'id',
	'label',
	'alt_label',
	'mam_label',
	'slug',
	'homepage',
	'description',
	'overlay',
	'bzt',
	'iiif',
	'form_url',
	'sector',
];
export const PERSON_SCALARS = ['iri', 'given_name', 'family_name', 'telephone', 'email'];

/** A person as Output Simplified gives it: the scalars, and each post as its role's label and its organizations. */
export function simplifiedPerson(person: Person): IDataObject {
	return {
		...pick(person, PERSON_SCALARS),
		holds: person.holds.map((post) => ({
			role: { label: post.role.label },
			post_in: post.post_in.map((organization) => pick(organization, ['id', 'label'])),
		})),
	};
}

export { orgCredentials };

export async function runOrganizationNode(
	sandbox: Sandbox,
	parameters: INodeParameters,
	options: Partial<RunNodeOptions> = {},
): Promise<NodeRunResult> {
	return await runNode({
		nodeType: new ArchiveOrganization(),
		parameters,
		credentials: options.credentials ?? orgCredentials(sandbox),
		...options,
	});
}

export function jsonOf(result: NodeRunResult): IDataObject[] {
	return (result.outputs[0] ?? []).map((item) => item.json);
}

export function pick(entity: object, keys: string[]): IDataObject {
	const source = entity as Record<string, unknown>;
	return Object.fromEntries(keys.map((key) => [key, source[key] ?? null]));
}

export function sortedByIri<T extends { iri: string }>(entities: T[]): T[] {
	return [...entities].sort((a, b) => (a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0));
}

/** Requests the node sent to the Organization API's GraphQL endpoint and token endpoint so far. */
export function requestCounts(sandbox: Sandbox): { graphql: number; token: number } {
	const requests = sandbox.counters.get().org.requests;
	return { graphql: requests.graphql ?? 0, token: requests.token ?? 0 };
}

/**
 * A real n8n-core LoadOptionsContext for the node, as the editor uses it to fill option lists: credentials through
 * the test helper (token flow included), requests over HTTP to the emulator.
 */
export function loadOptionsContext(
	credentials: TestCredentialsHelper,
	currentParameters: INodeParameters,
): ILoadOptionsFunctions {
	const nodeType = new ArchiveOrganization();
	const node: INode = {
		id: 'node-under-test',
		name: 'Archive Organization',
		type: 'test.archiveOrganization',
		typeVersion: 1,
		position: [0, 0],
		parameters: currentParameters,
		credentials: { [CREDENTIAL_TYPE]: { id: `${CREDENTIAL_TYPE}-id`, name: 'Organization test' } },
	};
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({
		id: 'load-options',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
		staticData: {},
		settings: {},
	});
	const additionalData = {
		credentialsHelper: credentials,
		currentNodeParameters: currentParameters,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		variables: {},
	} as unknown as IWorkflowExecuteAdditionalData;
	return new LoadOptionsContext(workflow, node, additionalData, 'parameters.fields');
}
