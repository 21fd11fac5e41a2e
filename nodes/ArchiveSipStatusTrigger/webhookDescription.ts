import type { INodeParameters, IWebhookDescription } from 'n8n-workflow';

import { RESPOND_PARAMETER } from './respond';

/**
 * The trigger's one webhook. Its response mode follows the node's *Respond* parameter, so it is written as an
 * expression, which the editor and n8n 1.x evaluate. n8n 2.x would evaluate it in an expression isolate for every
 * delivery (a CPU profile under 20 concurrent senders put that at 15 % of n8n's main thread); it skips the isolate
 * for a field that declares a native resolver under this registered symbol (n8n-workflow's `WEBHOOK_RESOLVERS`),
 * as long as the resolver's template is the field's value and the node's parameters hold no expression. Older n8n
 * ignores the symbol.
 */
const WEBHOOK_RESOLVERS = Symbol.for('n8n.webhookDescriptionResolvers');

interface NativeResolver {
	/** Must equal the field's value, or n8n falls back to the expression. */
	template: string;
	resolve: (parameters: INodeParameters) => unknown;
}

const RESPONSE_MODE_EXPRESSION =
	`={{ $parameter["${RESPOND_PARAMETER}"] === "afterSaved" ? "responseNode" : "onReceived" }}` as const;

/** "Immediately": n8n's own answer, 204 without a body. */
const RESPONSE_CODE_EXPRESSION = '={{204}}';

/** What RESPONSE_MODE_EXPRESSION gives for these parameters, without an expression engine. */
function responseModeFor(parameters: INodeParameters): 'responseNode' | 'onReceived' {
	return parameters[RESPOND_PARAMETER] === 'afterSaved' ? 'responseNode' : 'onReceived';
}

const resolvers: Record<string, NativeResolver> = {
	responseMode: { template: RESPONSE_MODE_EXPRESSION, resolve: responseModeFor },
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
