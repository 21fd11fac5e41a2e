import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** What a look-up outputs for a key that matches nothing: the same choice, name and default on every look-up. */
export type WhenNotFound = 'noItem' | 'notFoundItem' | 'error';

const DEFAULT_WHEN_NOT_FOUND: WhenNotFound = 'noItem';

/** The look-ups' "When Not Found" option; `key` is the parameter the user gives (ID, PID, ...). */
export function whenNotFoundOption(key: string): INodeProperties {
	return {
		displayName: 'When Not Found',
		name: 'whenNotFound',
		type: 'options',
		options: [
			{
				name: 'Output No Item',
				value: 'noItem',
				description:
					'The input item gets no output; the output panel says how many matched nothing',
			},
			{
				name: 'Output a Not-Found Item',
				value: 'notFoundItem',
				description: `An item with the ${key} and found: false; found records then carry found: true`,
			},
			{
				name: 'Stop With an Error',
				value: 'error',
				description: 'The node fails, unless its On Error setting says to continue',
			},
		],
		default: DEFAULT_WHEN_NOT_FOUND,
		description: `What to output for an input item whose ${key} matches nothing`,
	};
}

/** The item's When Not Found choice (from its Options collection). */
export function readWhenNotFound(options: IDataObject): WhenNotFound {
	const chosen = options.whenNotFound;
	return chosen === 'notFoundItem' || chosen === 'error' ? chosen : DEFAULT_WHEN_NOT_FOUND;
}

/** A look-up's key and what it names: `{ noun: 'speech task', key: 'task_id', value: '…' }`. */
export interface NotFoundKey {
	noun: string;
	key: string;
	value: string;
}

/** The output for a found record: with a not-found item as the choice, found records say so too. */
export function markFound(json: IDataObject, whenNotFound: WhenNotFound): IDataObject {
	return whenNotFound === 'notFoundItem' ? { ...json, found: true } : json;
}

/**
 * One group of look-ups' outputs for keys that matched nothing. `hint()` then says in the output panel how many
 * input items got no item, so that an empty output points to When Not Found instead of leaving "No output data
 * returned" unexplained.
 */
export class NotFoundOutputs {
	private readonly unmatched: NotFoundKey[] = [];

	constructor(private readonly ctx: IExecuteFunctions) {}

	/** The item's output for its key, as its When Not Found says. */
	of(whenNotFound: WhenNotFound, lookup: NotFoundKey, itemIndex: number): IDataObject[] | Error {
		if (whenNotFound === 'notFoundItem') return [{ [lookup.key]: lookup.value, found: false }];
		if (whenNotFound === 'noItem') {
			this.unmatched.push(lookup);
			return [];
		}
		return new NodeOperationError(
			this.ctx.getNode(),
			`No ${lookup.noun} with ${lookup.key} "${lookup.value}" was found`,
			{
				itemIndex,
				description: `Check the ${lookup.key}, or the account's access to the record. To get no item or an item with found: false instead, change When Not Found under Options.`,
			},
		);
	}

	hint(): void {
		const { ctx, unmatched } = this;
		if (unmatched.length === 0 || typeof ctx.addExecutionHints !== 'function') return;
		const [first] = unmatched;
		const which =
			unmatched.length === 1
				? `No ${first.noun} with ${first.key} "${first.value}" was found, so its input item has no output.`
				: `${unmatched.length} input items matched nothing (the first: ${first.key} "${first.value}"), so they have no output.`;
		ctx.addExecutionHints({
			message: `${which} To get an item with found: false instead, change When Not Found under Options.`,
			location: 'outputPane',
		});
	}
}
