import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

/**
 * Each `actions/<operation>.operation.ts` exports its parameters (`description`) and `execute`, which runs the
 * operation over all input items and returns the output items, each with its `pairedItem`.
 */
interface NodeAction {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, resource: string): Promise<INodeExecutionData[]>;
}

export interface ActionRoutes {
	/** Operation value -> action. */
	actions: Record<string, NodeAction>;
}

/** Reads the resource and operation (the same for every item: neither takes expressions) and runs the action. */
export async function routeAction(
	this: IExecuteFunctions,
	routes: ActionRoutes,
): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0);
	const operation = this.getNodeParameter('operation', 0);
	const action = Object.hasOwn(routes.actions, operation) ? routes.actions[operation] : undefined;
	if (!action) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" is not supported for "${resource}"`,
			{ itemIndex: 0 },
		);
	}
	return [await action.execute.call(this, resource)];
}
