import type { INodeParameters, IWebhookDescription } from 'n8n-workflow';

import { RESPOND_PARAMETER } from './respond';

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
