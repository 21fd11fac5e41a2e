import type { INodeParameters, INodeProperties, IWebhookDescription } from 'n8n-workflow';

import { optionsCollection } from '../shared/n8n/descriptions';
import { RESPOND_PARAMETER } from './respond';
import { DEFAULT_MAX_BODY_KIB, DEFAULT_TOLERANCE_SECONDS, MAX_TOLERANCE_SECONDS } from './settings';
import { DEFAULT_CUSTOM_EVENT_TYPES, DEFAULT_EVENT_TYPE_CHOICE } from './typeFilter';

/** The trigger's parameters. */
export const sipStatusTriggerProperties: INodeProperties[] = [
	{
		displayName:
			'Give the archive the Production URL above as the receiver of SIP status updates, and put the signing secret it gives you in the credential.',
		name: 'registrationNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Start Workflow On',
		name: 'outcomes',
		type: 'options',
		options: [
			{ name: 'Success and Failure', value: 'both', description: 'Every status event' },
			{ name: 'Success Only', value: 'success', description: 'Only events with outcome "success"' },
			{ name: 'Failure Only', value: 'failure', description: 'Only events with outcome "failure"' },
		],
		default: 'both',
		description:
			'Which outcomes start the workflow. Other events are acknowledged to the archive and logged, or sent to a Filtered Out output (see Options).',
	},
	{
		displayName: 'Event Types',
		name: 'eventTypes',
		type: 'options',
		options: [
			{
				name: 'Any Type',
				value: 'any',
				description: 'Every event type, also types the archive adds later',
			},
			{
				name: 'SIP Archived',
				value: 'sipArchived',
				description: 'Only *.sip.archived, the type the archive sends for both outcomes',
			},
			{
				name: 'Custom Patterns',
				value: 'custom',
				description: 'Event types you list, with * matching any text',
			},
		],
		default: DEFAULT_EVENT_TYPE_CHOICE,
		description:
			'Which event types start the workflow. Other events are acknowledged to the archive and logged, or sent to a Filtered Out output (see Options).',
	},
	{
		displayName: 'Custom Event Types',
		name: 'customEventTypes',
		type: 'string',
		default: DEFAULT_CUSTOM_EVENT_TYPES,
		placeholder: 'e.g. *.sip.archived, *.sip.deleted',
		description:
			'Event types separated by commas or new lines; * matches any text, and * alone or nothing means every type',
		displayOptions: { show: { eventTypes: ['custom'] } },
	},
	{
		displayName: 'Output',
		name: 'outputMode',
		type: 'options',
		options: [
			{
				name: 'Single Output',
				value: 'single',
				description: 'All events leave through one output',
			},
			{
				name: 'Separate Success and Failure Outputs',
				value: 'perOutcome',
				description: 'Successes leave through the first output, failures through the second',
			},
		],
		default: 'single',
	},
	{
		displayName: 'Respond',
		name: RESPOND_PARAMETER,
		type: 'options',
		options: [
			{
				name: 'Immediately',
				value: 'immediately',
				description:
					'Answer 204 as soon as the event is verified and handed to n8n (fastest). n8n 2.x sends it once the execution is saved; n8n 1.x before, so there an event can be lost if n8n stops in that moment.',
			},
			{
				name: 'After the Event Is Saved',
				value: 'afterSaved',
				description:
					'Answer 204 only once n8n has saved the execution (in queue mode: queued and taken by a worker); if that fails, the archive retries',
			},
		],
		default: 'immediately',
		description: 'When the archive is told that the event was delivered',
	},
	{
		displayName:
			"The archive gets its answer once the execution has started, so nothing is lost if n8n fails before. In queue mode, keep workers free enough to start it within the archive's 15 seconds.",
		name: 'afterSavedNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { [RESPOND_PARAMETER]: ['afterSaved'] } },
	},
	optionsCollection(undefined, [
		{
			displayName: 'Include Raw Event',
			name: 'includeRawEvent',
			type: 'boolean',
			default: false,
			description:
				'Whether to add the full parsed event body as the field "event", for fields of the archive\'s event that the item does not carry',
		},
		{
			displayName: 'Max Body Size (KiB)',
			name: 'maxBodySizeKib',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_MAX_BODY_KIB,
			description:
				"Larger requests are refused with status 400, before the body is read where the sender declares its size. Raise it only if the archive sends larger events; n8n's own N8N_PAYLOAD_SIZE_MAX (16 MiB by default) still applies.",
		},
		{
			displayName: 'Rate Limit (Events per Minute)',
			name: 'eventsPerMinute',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				'Set it when the workflow cannot keep up with bursts: signed events beyond this rate are answered 429 and the archive sends them again later. 0 turns the limit off.',
		},
		{
			displayName: 'Send Filtered-Out Events to Extra Output',
			name: 'sendFilteredOut',
			type: 'boolean',
			default: false,
			description:
				'Whether events left out by Event Types or Start Workflow On start the workflow on an extra output named Filtered Out, instead of only being logged',
		},
		{
			displayName: 'Timestamp Tolerance (Seconds)',
			name: 'toleranceSeconds',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_TOLERANCE_SECONDS },
			default: DEFAULT_TOLERANCE_SECONDS,
			description: `How far the webhook-timestamp may be from this server's clock, either way (at most ${MAX_TOLERANCE_SECONDS}). After n8n starts, Production URL events get 503 for this long and the archive resends them, so a copy captured earlier cannot run twice.`,
		},
	]),
];

/**
 * The trigger's one webhook. Its response mode follows the node's *Respond* parameter, so it is written as an
 * expression, which the editor and n8n 1.x evaluate. n8n 2.x would evaluate it in an expression isolate for every
 * delivery, a large share of its main thread under load; it skips the isolate for a field that declares a native
 * resolver under this registered symbol (n8n-workflow's `WEBHOOK_RESOLVERS`), as long as the node's parameters hold
 * no expression. Older n8n ignores the symbol.
 */
const WEBHOOK_RESOLVERS = Symbol.for('n8n.webhookDescriptionResolvers');

const RESPONSE_MODE_EXPRESSION =
	`={{ $parameter["${RESPOND_PARAMETER}"] === "afterSaved" ? "responseNode" : "onReceived" }}` as const;

const RESPONSE_CODE_EXPRESSION = '={{204}}';

/** Each template must equal the field's value, or n8n falls back to the expression. */
const resolvers = {
	responseMode: {
		template: RESPONSE_MODE_EXPRESSION,
		resolve: (parameters: INodeParameters) =>
			parameters[RESPOND_PARAMETER] === 'afterSaved' ? 'responseNode' : 'onReceived',
	},
	responseCode: { template: RESPONSE_CODE_EXPRESSION, resolve: () => 204 },
};

export const sipStatusWebhook = {
	name: 'default',
	httpMethod: 'POST',
	responseMode: RESPONSE_MODE_EXPRESSION,
	responseCode: RESPONSE_CODE_EXPRESSION,
	responseData: 'noData',
	path: 'sip-status',
	[WEBHOOK_RESOLVERS]: resolvers,
} as IWebhookDescription;
