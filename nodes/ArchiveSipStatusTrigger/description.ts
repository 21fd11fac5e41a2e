import type { INodeProperties } from 'n8n-workflow';

import { RESPOND_PARAMETER } from './respond';
import { DEFAULT_MAX_BODY_KIB, DEFAULT_TOLERANCE_SECONDS, MAX_TOLERANCE_SECONDS } from './settings';
import { DEFAULT_EVENT_TYPE_PATTERNS } from './typeFilter';

/** The trigger's parameters. */
export const sipStatusTriggerProperties: INodeProperties[] = [
	{
		displayName:
			'Register the webhook URL shown above with the archive as the receiver of SIP status updates: the Test URL while you listen for a test event, the Production URL once the workflow is active. Use the signing secret the archive gives you in the credential.',
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
			"Nothing to add to the workflow: this trigger answers from the saved execution, as its first step. Answers wait for the execution to start; in queue mode keep enough workers free that it starts within the archive's 15-second timeout (a late answer only causes a retry, which is then answered without running again).",
		name: 'afterSavedNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { [RESPOND_PARAMETER]: ['afterSaved'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Event Types',
				name: 'eventTypes',
				type: 'string',
				default: DEFAULT_EVENT_TYPE_PATTERNS,
				placeholder: '*.sip.archived',
				description:
					'Event types that start the workflow, separated by commas or new lines; * matches any text, and * alone or nothing means every type. The archive is known to send only *.sip.archived (such as service.sip.archived), for both outcomes.',
			},
			{
				displayName: 'Include Raw Event',
				name: 'includeRawEvent',
				type: 'boolean',
				default: false,
				description: 'Whether to add the full parsed event body as the field "event"',
			},
			{
				displayName: 'Max Body Size (KiB)',
				name: 'maxBodySizeKib',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_MAX_BODY_KIB,
				description:
					'Larger requests are refused with status 400; a larger declared Content-Length is refused before the body is read. n8n itself reads JSON, form and XML bodies before the trigger runs, bounded by its N8N_PAYLOAD_SIZE_MAX (16 MiB by default).',
			},
			{
				displayName: 'Rate Limit (Events per Minute)',
				name: 'eventsPerMinute',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description:
					'Signed events beyond this rate are answered 429 so the archive retries later. 0 turns the limit off.',
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
				description: `How far the webhook-timestamp header may be from this server's clock, in either direction. At most ${MAX_TOLERANCE_SECONDS} (one hour); larger values count as ${MAX_TOLERANCE_SECONDS}.`,
			},
		],
	},
];
