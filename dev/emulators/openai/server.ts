import { randomUUID } from 'node:crypto';
import * as http from 'node:http';

/**
 * A scripted OpenAI-compatible chat model for end-to-end tests of n8n's AI Agent (issue 25 item 4).
 *
 * It answers what n8n's OpenAI Chat Model node (`lmChatOpenAi`, LangChain's `ChatOpenAI`) calls:
 * - `POST /v1/chat/completions`, non-streaming (JSON) and streaming (`stream: true`, server-sent events);
 * - `GET /v1/models`, which the node's model list (From List) calls in the editor.
 *
 * It is no language model: a request without tool results gets the test's scripted tool calls; a request that
 * holds tool results (`role: "tool"` messages) gets a final text the test builds FROM those messages, so a test
 * can prove rows really flowed from the tools through the agent. Every request is recorded, so a test can check
 * which tool schemas n8n sent and that no secret reached the model. Loopback only.
 */

/** One tool call the model makes: the tool's name as n8n offered it and its JSON arguments. */
export interface ScriptedToolCall {
	name: string;
	arguments: Record<string, unknown>;
}

/** A tool definition as it arrives in a request (`tools[].function`). */
export interface OfferedTool {
	name: string;
	description?: string;
	parameters?: {
		type?: string;
		properties?: Record<string, { type?: string; description?: string }>;
		required?: string[];
	};
}

/** A tool result the model received: the `role: "tool"` message and the call it answers. */
export interface ToolResultMessage {
	toolCallId: string;
	/** The tool's name, from the assistant message that made the call (empty when not found). */
	name: string;
	/** The message content as text (array contents joined). */
	content: string;
}

export interface ChatScript {
	/** The tool calls of the first turn (a request holding no tool result yet). */
	toolCalls(tools: OfferedTool[]): ScriptedToolCall[];
	/** The final answer, once the request holds tool results. */
	answer(results: ToolResultMessage[]): string;
}

export interface RecordedChatRequest {
	method: string;
	path: string;
	headers: http.IncomingHttpHeaders;
	/** The raw body, as received. */
	body: string;
}

export interface OpenAiEmulator {
	/** The credential's Base URL: `http://127.0.0.1:<port>/v1`. */
	baseUrl: string;
	/** Every request received, in order. */
	requests: RecordedChatRequest[];
	close(): Promise<void>;
}

export interface OpenAiEmulatorOptions {
	script: ChatScript;
	/** Model ids `GET /v1/models` lists; default `['gpt-4o-mini']`. */
	models?: string[];
	/** Default 0: a free port. */
	port?: number;
}

export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_call_id?: string;
	tool_calls?: Array<{ id?: string; function?: { name?: string } }>;
}

export interface ChatRequestBody {
	model?: string;
	stream?: boolean;
	stream_options?: { include_usage?: boolean };
	messages?: ChatMessage[];
	tools?: Array<{ type?: string; function?: OfferedTool }>;
}

interface AssistantTurn {
	content: string | null;
	toolCalls: Array<{ id: string; name: string; arguments: string }>;
}

export async function startOpenAiEmulator(options: OpenAiEmulatorOptions): Promise<OpenAiEmulator> {
	const requests: RecordedChatRequest[] = [];
	const models = options.models ?? ['gpt-4o-mini'];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks).toString('utf8');
			const path = (req.url ?? '/').split('?')[0];
			requests.push({ method: req.method ?? '', path, headers: req.headers, body });
			try {
				if (req.method === 'GET' && path === '/v1/models') {
					sendJson(res, 200, {
						object: 'list',
						data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'emulator' })),
					});
				} else if (req.method === 'POST' && path === '/v1/chat/completions') {
					const parsed = JSON.parse(body) as ChatRequestBody;
					const turn = nextTurn(options.script, parsed);
					if (parsed.stream) streamTurn(res, parsed, turn);
					else sendJson(res, 200, completion(parsed, turn));
				} else {
					sendJson(res, 404, {
						error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' },
					});
				}
			} catch (error) {
				sendJson(res, 400, { error: { message: String(error), type: 'invalid_request_error' } });
			}
		});
	});
	await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** The parsed chat-completions bodies among recorded requests. */
export function chatRequests(requests: RecordedChatRequest[]): ChatRequestBody[] {
	return requests
		.filter((each) => each.method === 'POST' && each.path === '/v1/chat/completions')
		.map((each) => JSON.parse(each.body) as ChatRequestBody);
}

/** The tool results in a chat request's messages, each with the name of the tool that was called. */
export function toolResults(messages: ChatMessage[]): ToolResultMessage[] {
	const names = new Map<string, string>();
	for (const message of messages) {
		for (const call of message.tool_calls ?? []) {
			if (call.id) names.set(call.id, call.function?.name ?? '');
		}
	}
	return messages
		.filter((message) => message.role === 'tool')
		.map((message) => ({
			toolCallId: message.tool_call_id ?? '',
			name: names.get(message.tool_call_id ?? '') ?? '',
			content: textOf(message.content),
		}));
}

function textOf(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) {
		return content
			.map((part: unknown) =>
				typeof part === 'string'
					? part
					: typeof (part as { text?: unknown })?.text === 'string'
						? (part as { text: string }).text
						: JSON.stringify(part),
			)
			.join('');
	}
	return content === undefined || content === null ? '' : JSON.stringify(content);
}

function nextTurn(script: ChatScript, body: ChatRequestBody): AssistantTurn {
	const results = toolResults(body.messages ?? []);
	if (results.length > 0) return { content: script.answer(results), toolCalls: [] };
	const tools = (body.tools ?? []).flatMap((each) => (each.function ? [each.function] : []));
	const calls = script.toolCalls(tools);
	return {
		content: calls.length === 0 ? script.answer([]) : null,
		toolCalls: calls.map((call) => ({
			id: `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
			name: call.name,
			arguments: JSON.stringify(call.arguments),
		})),
	};
}

const USAGE = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };

function completion(body: ChatRequestBody, turn: AssistantTurn) {
	return {
		id: `chatcmpl-${randomUUID()}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: body.model ?? 'gpt-4o-mini',
		choices: [
			{
				index: 0,
				message: {
					role: 'assistant',
					content: turn.content,
					...(turn.toolCalls.length > 0
						? {
								tool_calls: turn.toolCalls.map((call) => ({
									id: call.id,
									type: 'function',
									function: { name: call.name, arguments: call.arguments },
								})),
							}
						: {}),
				},
				logprobs: null,
				finish_reason: turn.toolCalls.length > 0 ? 'tool_calls' : 'stop',
			},
		],
		usage: USAGE,
	};
}

/** The same turn as `chat.completion.chunk` events: role, content or one chunk per tool call, finish, usage. */
function streamTurn(res: http.ServerResponse, body: ChatRequestBody, turn: AssistantTurn): void {
	const id = `chatcmpl-${randomUUID()}`;
	const created = Math.floor(Date.now() / 1000);
	const model = body.model ?? 'gpt-4o-mini';
	const chunk = (delta: Record<string, unknown>, finishReason: string | null) => ({
		id,
		object: 'chat.completion.chunk',
		created,
		model,
		choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
	});
	const events: unknown[] = [chunk({ role: 'assistant', content: '' }, null)];
	if (turn.content !== null) events.push(chunk({ content: turn.content }, null));
	turn.toolCalls.forEach((call, index) =>
		events.push(
			chunk(
				{
					tool_calls: [
						{
							index,
							id: call.id,
							type: 'function',
							function: { name: call.name, arguments: call.arguments },
						},
					],
				},
				null,
			),
		),
	);
	events.push(chunk({}, turn.toolCalls.length > 0 ? 'tool_calls' : 'stop'));
	if (body.stream_options?.include_usage) {
		events.push({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: USAGE });
	}
	res.writeHead(200, {
		'content-type': 'text/event-stream',
		'cache-control': 'no-cache',
		connection: 'close',
	});
	for (const event of events) res.write(`data: ${JSON.stringify(event)}\n\n`);
	res.end('data: [DONE]\n\n');
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
	res.end(JSON.stringify(value));
}
