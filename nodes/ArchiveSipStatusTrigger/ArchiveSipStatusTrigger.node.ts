import type {
	IDataObject,
	ICredentialTestFunctions,
	IExecuteFunctions,
	INodeExecutionData,
	ICredentialsDecrypted,
	IHookFunctions,
	INodeCredentialTestResult,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { testSigningSecrets } from './credentialTest';
import { handleDelivery, type DeliveryResult } from './delivery';
import { rateLimiterFor } from './rateLimit';
import { REPLAY_WINDOW_MS, type ReplayStore } from './replayStore';
import type { OutputMode } from './delivery';
import { readRawBody, type RawBodyRequest } from './request';
import {
	holdUntilAnswered,
	isInFlight,
	RESPOND_PARAMETER,
	RESPONSE_MODE_EXPRESSION,
	respondModeOf,
	routeItems,
	SAVED_RESPONSE,
	type AnsweredResponse,
} from './respond';
import { sendError, sendNoContent, type ResponseWriter } from './response';
import { replayStoreForDelivery } from './sharedReplayStore';
import {
	DEFAULT_MAX_BODY_KIB,
	DEFAULT_TOLERANCE_SECONDS,
	MAX_TOLERANCE_SECONDS,
	maxBodyBytesOf,
	mayRereadSigningKeys,
	readSettings,
	TriggerConfigurationError,
} from './settings';
import { DEFAULT_EVENT_TYPE_PATTERNS } from './typeFilter';
import { readWebhookHeaders } from './verify';

/** One output, or Success and Failure outputs when "Output" is "perOutcome" (n8n's Switch/If pattern). */
const OUTPUTS_EXPRESSION =
	`={{ $parameter.outputMode === "perOutcome"
		? [{ "type": "main", "displayName": "Success" }, { "type": "main", "displayName": "Failure" }]
		: [{ "type": "main" }] }}` as const;

/** Replays and rate limits are tracked per trigger node, and apart for test and production URLs. */
function scopeOf(context: IWebhookFunctions): string {
	const node = context.getNode();
	return `${context.getWorkflow().id ?? ''}:${node.id ?? node.name}:${context.getMode()}`;
}

/**
 * Our own errors carry messages known to be free of secrets; a foreign error (e.g. from a shared
 * replay store) might quote a connection string, so only its class name is logged.
 */
function describeFailure(error: unknown): string {
	if (error instanceof TriggerConfigurationError) return error.message;
	return error instanceof Error ? `unexpected ${error.name}` : 'unexpected failure';
}

/** A replay store made on first use. */
function lazyReplayStore(create: () => ReplayStore): ReplayStore {
	let store: ReplayStore | undefined;
	const get = () => (store ??= create());
	return {
		seen: async (id) => await get().seen(id),
		remember: async (id, expiresAtMs) => await get().remember(id, expiresAtMs),
		forget: async (id) => await get().forget(id),
		release: async (id) => {
			const made = get();
			await (made.release ?? made.forget).call(made, id);
		},
		confirm: async (id, expiresAtMs) => await get().confirm?.(id, expiresAtMs),
	};
}

/**
 * One delivery, verified with the credential's signing keys. Keys this process read a moment ago are reused
 * (signingKeyCache.ts); a signature refused with reused keys may be checked once more with the credential read afresh.
 */
async function handleWithSigningKeys(
	context: IWebhookFunctions,
	scope: string,
	replayStore: ReplayStore,
): Promise<DeliveryResult> {
	const req = context.getRequestObject() as unknown as RawBodyRequest;
	const maxBodyBytes = maxBodyBytesOf(context.getNodeParameter('options', {}) as IDataObject);
	const read = await readRawBody(req, maxBodyBytes);
	if (!read.ok) {
		return { status: 400, error: read.tooLarge ? `body exceeds the maximum size of ${maxBodyBytes} bytes` : read.reason };
	}
	const { rawBody } = read;
	// Headers that can never verify are refused before the credential, the settings or the replay record are read.
	const headers = readWebhookHeaders(req.headers);
	if (!headers.ok) return { status: 401, error: headers.reason };
	const nowMs = Date.now();
	const attempt = async (reuseRecentKeys: boolean) => {
		const { settings, eventsPerMinute, secretProblems, keysReused } = await readSettings(context, { reuseRecentKeys, nowMs });
		if (secretProblems.length > 0) {
			context.logger.warn(`Archive SIP Status Trigger ignores unusable secrets: ${secretProblems.join('; ')}`);
		}
		const result = await handleDelivery(req.headers, rawBody, settings, {
			replayStore,
			rateLimiter: eventsPerMinute > 0 ? rateLimiterFor(scope, eventsPerMinute) : undefined,
			nowMs,
			isInFlight: (id) => isInFlight(scope, id),
		});
		return { result, keysReused };
	};
	const first = await attempt(true);
	// A secret may have been added since the keys were read: worth a second look only when nothing but the
	// signature failed. A 401 comes before the replay record and the rate limit are touched, so it has nothing to undo.
	const { result } = first;
	const signatureOnly = result.status === 401 && result.signatureOnly === true;
	if (signatureOnly && first.keysReused && mayRereadSigningKeys(context, nowMs)) return (await attempt(false)).result;
	return result;
}

export class ArchiveSipStatusTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Archive SIP Status Trigger',
		name: 'archiveSipStatusTrigger',
		icon: { light: 'file:archiveSipStatus.svg', dark: 'file:archiveSipStatus.dark.svg' },
		group: ['trigger'],
		// Both versions behave alike. n8n treats a version-1 webhook start node like its legacy Webhook node and
		// evaluates that node's binary-data option as an expression on every request (in n8n 2.x, in an expression
		// isolate): version 2 spares each delivery that work. Workflows saved with version 1 keep working.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{ "On " + ($parameter.outcomes === "both" ? "any outcome" : $parameter.outcomes) }}',
		description: 'Starts the workflow when the archive reports the outcome of a submitted SIP (signed Standard Webhooks event)',
		documentationUrl: 'https://github.com/archive-services/n8n-nodes-archive-services#archive-sip-status-trigger',
		defaults: { name: 'Archive SIP Status Trigger' },
		inputs: [],
		outputs: OUTPUTS_EXPRESSION,
		credentials: [{ name: 'archiveSipWebhookApi', required: true, testedBy: 'archiveSipWebhookSecretTest' }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: RESPONSE_MODE_EXPRESSION, path: 'sip-status' }],
		eventTriggerDescription: 'Waiting for the archive to send a SIP status event to the Test URL',
		activationMessage: 'SIP status events sent to the Production URL now start this workflow.',
		properties: [
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
				description: 'Which outcomes start the workflow. Other events are still acknowledged to the archive.',
			},
			{
				displayName: 'Output',
				name: 'outputMode',
				type: 'options',
				options: [
					{ name: 'Single Output', value: 'single', description: 'All events leave through one output' },
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
							'Answer 204 as soon as the event is verified, before n8n saves the execution (fastest; an event can be lost if n8n stops in that moment)',
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
					'Nothing to add to the workflow: this trigger answers from the saved execution, as its first step. Answers wait for the execution to start; in queue mode keep enough workers free that it starts within the archive\'s 15-second timeout (a late answer only causes a retry, which is then answered without running again).',
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
							'Event types that start the workflow, separated by commas or new lines; * matches any text. Leave empty for every type. Other events are still acknowledged.',
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
						description: 'Signed events beyond this rate are answered 429 so the archive retries later. 0 turns the limit off.',
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
		],
	};

	// The archive is told the URL by hand (see the notice), so there is nothing to register remotely.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	methods = {
		credentialTest: {
			async archiveSipWebhookSecretTest(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				return testSigningSecrets(credential.data);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const res = this.getResponseObject() as unknown as ResponseWriter;
		let replayStore: ReplayStore | undefined;
		let acceptedId: string | undefined;
		try {
			const scope = scopeOf(this);
			// Shared through n8n's workflow static data, so replays hold across queue-mode processes. Made on first
			// use, after the signature verified: reading the shared record is work a forgery should not cause.
			const respondAfterSave = respondModeOf(this.getNodeParameter(RESPOND_PARAMETER, 'immediately')) === 'afterSaved';
			const store = lazyReplayStore(() =>
				replayStoreForDelivery(this, scope, { repairOnlyConfirmed: respondAfterSave }),
			);
			replayStore = store;
			const result = await handleWithSigningKeys(this, scope, store);
			if (result.status !== 204) {
				sendError(res, result.status, result.error, result.headers);
				return { noWebhookResponse: true };
			}
			acceptedId = result.acceptedId;
			if (respondAfterSave && result.workflowData && acceptedId !== undefined) {
				// n8n saves the execution, then execute() answers from it (respond.ts).
				const expiresAtMs = Date.now() + REPLAY_WINDOW_MS;
				holdUntilAnswered(res as unknown as AnsweredResponse, { scope, id: acceptedId, expiresAtMs }, store);
				return { workflowData: result.workflowData };
			}
			// Answered before the workflow runs: the sender gives up on an attempt after 15 s.
			sendNoContent(res);
			return { noWebhookResponse: true, workflowData: result.workflowData };
		} catch (error) {
			// Let the sender's retry through: this delivery did not complete.
			if (acceptedId !== undefined) await replayStore?.forget(acceptedId).catch(() => undefined);
			this.logger.error(`Archive SIP Status Trigger could not handle a delivery: ${describeFailure(error)}`);
			sendError(res, 500, 'internal error');
			return { noWebhookResponse: true };
		}
	}

	/**
	 * Runs as the execution's first node: puts each event on its outcome's output and, with "Respond: After the Event
	 * Is Saved", answers the delivery now that n8n has saved the execution.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		if (respondModeOf(this.getNodeParameter(RESPOND_PARAMETER, 0, 'immediately')) === 'afterSaved') {
			// Typed as void, but n8n's implementation returns the hook's promise: a failure here fails the execution,
			// and n8n then answers 500.
			await (this.sendResponse(SAVED_RESPONSE) as unknown as Promise<void> | undefined);
		}
		return routeItems(items, this.getNodeParameter('outputMode', 0, 'single') as OutputMode);
	}
}
