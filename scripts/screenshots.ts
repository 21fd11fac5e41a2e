/**
 * Screenshots of the package's nodes in the n8n editor, for the README. Run against a running demo
 * (`npm start` in another terminal):
 *
 *   node --experimental-websocket scripts/run-ts.js scripts/screenshots.ts
 *
 * Needs Debian's Chromium (`apt-get install chromium`). Speaks the DevTools protocol directly
 * (Node's WebSocket), so no browser-automation package is needed. Logs in as the demo owner,
 * opens each demo workflow and each package node's parameter panel, and writes PNGs to
 * docs/screenshots/. Environment: SCREENSHOT_N8N_URL (http://127.0.0.1:5678), CHROMIUM (/usr/bin/chromium).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { request } from '../dev/n8n/http';
import { REPO_ROOT } from '../dev/n8n/install';
import { PACKAGE_NODE_TYPES } from '../dev/n8n/workflows';
import { DEMO_WORKFLOW_IDS } from './demo/workflows';
import { DEMO_OWNER } from './demo/owner';

const N8N_URL = (process.env.SCREENSHOT_N8N_URL ?? 'http://127.0.0.1:5678').replace(/\/$/, '');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const OUT_DIR = path.join(REPO_ROOT, 'docs', 'screenshots');
const VIEWPORT = { width: 1600, height: 1000 };
// Flags that work on these machines (closed network, root): see the machine notes.
const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--hide-scrollbars',
	'--remote-debugging-port=0',
];

interface Shot {
	file: string;
	path: string;
	/** CSS selector that shows the page is drawn. */
	readySelector: string;
}

/** A minimal DevTools-protocol client over one WebSocket, with flattened target sessions. */
class DevTools {
	private nextId = 1;
	private readonly pending = new Map<
		number,
		{ resolve(value: unknown): void; reject(error: Error): void }
	>();

	private constructor(private readonly socket: WebSocket) {
		socket.addEventListener('message', (event) => {
			const message = JSON.parse(String(event.data)) as {
				id?: number;
				result?: unknown;
				error?: { message: string };
			};
			if (message.id === undefined) return;
			const waiter = this.pending.get(message.id);
			this.pending.delete(message.id);
			if (message.error) waiter?.reject(new Error(message.error.message));
			else waiter?.resolve(message.result);
		});
	}

	static async connect(url: string): Promise<DevTools> {
		const socket = new WebSocket(url);
		await new Promise<void>((resolve, reject) => {
			socket.addEventListener('open', () => resolve());
			socket.addEventListener('error', () => reject(new Error(`cannot connect to ${url}`)));
		});
		return new DevTools(socket);
	}

	send<T = Record<string, unknown>>(
		method: string,
		params: Record<string, unknown> = {},
		sessionId?: string,
	): Promise<T> {
		const id = this.nextId++;
		this.socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
		return new Promise<T>((resolve, reject) =>
			this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject }),
		);
	}

	close(): void {
		this.socket.close();
	}
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

async function login(): Promise<string> {
	const response = await request(`${N8N_URL}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		// 1.x and 2.x take `emailOrLdapLoginId`; older releases took `email`.
		body: JSON.stringify({
			emailOrLdapLoginId: DEMO_OWNER.email,
			email: DEMO_OWNER.email,
			password: DEMO_OWNER.password,
		}),
	});
	const cookies = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
	const auth = cookies.map((cookie) => /^n8n-auth=([^;]+)/.exec(cookie)?.[1]).find(Boolean);
	if (response.status !== 200 || !auth) {
		throw new Error(
			`login as ${DEMO_OWNER.email} failed (${response.status}); is the demo running (npm start)?`,
		);
	}
	return auth;
}

async function workflowNodes(
	cookie: string,
	workflowId: string,
): Promise<Array<{ id: string; name: string; type: string }>> {
	const response = await request(`${N8N_URL}/rest/workflows/${workflowId}`, {
		headers: { cookie: `n8n-auth=${cookie}` },
	});
	if (response.status !== 200)
		throw new Error(`GET /rest/workflows/${workflowId} answered ${response.status}`);
	return (
		JSON.parse(response.body) as {
			data: { nodes: Array<{ id: string; name: string; type: string }> };
		}
	).data.nodes;
}

async function plannedShots(cookie: string): Promise<Shot[]> {
	const canvas = '.vue-flow__node';
	const panel = '[data-test-id="ndv"], .ndv-wrapper, [data-test-id="node-parameters"]';
	const shots: Shot[] = [
		{
			file: 'sip-status-workflow.png',
			path: `/workflow/${DEMO_WORKFLOW_IDS.sip}`,
			readySelector: canvas,
		},
		{
			file: 'ai-metadata-export-workflow.png',
			path: `/workflow/${DEMO_WORKFLOW_IDS.export}`,
			readySelector: canvas,
		},
	];
	const panels: Array<[string, string, string]> = [
		[DEMO_WORKFLOW_IDS.sip, PACKAGE_NODE_TYPES.sipStatusTrigger, 'node-sip-status-trigger.png'],
		[DEMO_WORKFLOW_IDS.sip, PACKAGE_NODE_TYPES.aiMetadata, 'node-ai-metadata.png'],
		[DEMO_WORKFLOW_IDS.sip, PACKAGE_NODE_TYPES.organization, 'node-organization.png'],
		[
			DEMO_WORKFLOW_IDS.export,
			PACKAGE_NODE_TYPES.aiMetadataTrigger,
			'node-ai-metadata-trigger.png',
		],
	];
	for (const [workflowId, type, file] of panels) {
		const target = (await workflowNodes(cookie, workflowId)).find((each) => each.type === type);
		if (target)
			shots.push({ file, path: `/workflow/${workflowId}/${target.id}`, readySelector: panel });
	}
	return shots;
}

async function startChromium(): Promise<{ process: ChildProcess; wsUrl: string; profile: string }> {
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-screens-'));
	const child = spawn(CHROMIUM, [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, 'about:blank'], {
		stdio: ['ignore', 'ignore', 'pipe'],
	});
	const wsUrl = await new Promise<string>((resolve, reject) => {
		let output = '';
		child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
			output += chunk;
			const match = /DevTools listening on (ws:\/\/\S+)/.exec(output);
			if (match) resolve(match[1]);
		});
		child.once('exit', (code) =>
			reject(new Error(`chromium exited (${code}) before it was ready:\n${output}`)),
		);
	});
	return { process: child, wsUrl, profile };
}

async function waitFor(
	devtools: DevTools,
	sessionId: string,
	selector: string,
	timeoutMs = 30_000,
): Promise<boolean> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const { result } = await devtools.send<{ result: { value?: boolean } }>(
			'Runtime.evaluate',
			{
				expression: `document.querySelector(${JSON.stringify(selector)}) !== null`,
				returnByValue: true,
			},
			sessionId,
		);
		if (result.value === true) return true;
		await sleep(250);
	}
	return false;
}

async function capture(devtools: DevTools, sessionId: string, shot: Shot): Promise<void> {
	await devtools.send('Page.navigate', { url: `${N8N_URL}${shot.path}` }, sessionId);
	const ready = await waitFor(devtools, sessionId, shot.readySelector);
	// Canvas fit-to-view and panel transitions animate after the elements exist.
	await sleep(2500);
	const { data } = await devtools.send<{ data: string }>(
		'Page.captureScreenshot',
		{ format: 'png' },
		sessionId,
	);
	const file = path.join(OUT_DIR, shot.file);
	fs.writeFileSync(file, Buffer.from(data, 'base64'));
	console.log(
		`${ready ? 'wrote' : 'wrote (page may not be fully drawn)'} ${path.relative(REPO_ROOT, file)}`,
	);
}

async function main(): Promise<void> {
	fs.mkdirSync(OUT_DIR, { recursive: true });
	const cookie = await login();
	const shots = await plannedShots(cookie);
	const chromium = await startChromium();
	try {
		const devtools = await DevTools.connect(chromium.wsUrl);
		const { targetId } = await devtools.send<{ targetId: string }>('Target.createTarget', {
			url: 'about:blank',
		});
		const { sessionId } = await devtools.send<{ sessionId: string }>('Target.attachToTarget', {
			targetId,
			flatten: true,
		});
		await devtools.send('Page.enable', {}, sessionId);
		await devtools.send(
			'Emulation.setDeviceMetricsOverride',
			{ ...VIEWPORT, deviceScaleFactor: 1, mobile: false },
			sessionId,
		);
		const host = new URL(N8N_URL).hostname;
		await devtools.send(
			'Network.setCookie',
			{ name: 'n8n-auth', value: cookie, domain: host, path: '/', httpOnly: true },
			sessionId,
		);
		for (const shot of shots) await capture(devtools, sessionId, shot);
		devtools.close();
	} finally {
		chromium.process.kill('SIGTERM');
		await new Promise((resolve) => chromium.process.once('exit', resolve));
		fs.rmSync(chromium.profile, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(`screenshots: ${(error as Error).message}`);
	process.exit(1);
});
