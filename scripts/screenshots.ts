/**
 * Screenshots of the package's nodes in the n8n editor, for the README. Run against a running demo
 * (`npm start` in another terminal):
 *
 *   npm run screenshots
 *
 * Drives Debian's Chromium with playwright-core (dev/n8n/browser.ts; scripts/install-chromium.sh installs the
 * browser when it is missing). Logs in as the demo owner, opens each demo workflow and each package node's
 * parameter panel, waits until the page is drawn and still, and writes PNGs to docs/screenshots/.
 * Environment: SCREENSHOT_N8N_URL (http://127.0.0.1:5678), CHROMIUM (/usr/bin/chromium).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { Page } from 'playwright-core';

import {
	debugScreenshot,
	ensureChromium,
	launchChromium,
	loginContext,
	newEditorContext,
	restLogin,
} from '../dev/n8n/browser';
import { request } from '../dev/n8n/http';
import { REPO_ROOT } from '../dev/n8n/install';
import { PACKAGE_NODE_TYPES } from '../dev/n8n/workflows';
import { DEMO_OWNER } from './demo/owner';
import { DEMO_WORKFLOW_IDS } from './demo/workflows';

const N8N_URL = (process.env.SCREENSHOT_N8N_URL ?? 'http://127.0.0.1:5678').replace(/\/$/, '');
const OUT_DIR = path.join(REPO_ROOT, 'docs', 'screenshots');
/** Every wait for the editor. */
const TIMEOUT_MS = 60_000;

interface Shot {
	file: string;
	path: string;
	/** Shows the page is drawn: the canvas's nodes, or the node panel's parameters. */
	readySelector: string;
}

const CANVAS_READY = '[data-test-id="canvas-node"]';
const PANEL_READY =
	'[data-test-id="ndv"] [data-test-id="node-parameters"] [data-test-id="parameter-item"]';

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
	const shots: Shot[] = [
		{
			file: 'sip-status-workflow.png',
			path: `/workflow/${DEMO_WORKFLOW_IDS.sip}`,
			readySelector: CANVAS_READY,
		},
		{
			file: 'ai-metadata-export-workflow.png',
			path: `/workflow/${DEMO_WORKFLOW_IDS.export}`,
			readySelector: CANVAS_READY,
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
			shots.push({
				file,
				path: `/workflow/${workflowId}/${target.id}`,
				readySelector: PANEL_READY,
			});
		else console.warn(`no ${type} node in workflow ${workflowId}: ${file} not written`);
	}
	return shots;
}

/** The little of the browser's globals the page functions below use (the type check runs without the DOM lib). */
interface PageGlobals {
	document: {
		fonts: { ready: Promise<unknown> };
		querySelector(selector: string): object | null;
		querySelectorAll(selector: string): ArrayLike<{
			getBoundingClientRect(): { x: number; y: number; width: number; height: number };
		}>;
		getAnimations(): Array<{ playState: string }>;
	};
	getComputedStyle(element: object): { transform: string };
	__still?: { key: string; frames: number };
}

/**
 * Waits until nothing on the page moves: no running animation or transition, and the same canvas transform (the
 * fit-to-view zoom is script-driven) and the same boxes of the drawn elements for 10 frames in a row.
 */
async function waitUntilStill(page: Page, selector: string): Promise<void> {
	await page.evaluate(async () => {
		await (globalThis as unknown as PageGlobals).document.fonts.ready;
	});
	await page.waitForFunction(
		(watched) => {
			const page = globalThis as unknown as PageGlobals;
			const pane = page.document.querySelector('.vue-flow__transformationpane');
			const boxes = Array.from(page.document.querySelectorAll(watched), (element) => {
				const box = element.getBoundingClientRect();
				return [box.x, box.y, box.width, box.height].map(Math.round).join(',');
			});
			const key = `${pane ? page.getComputedStyle(pane).transform : ''}|${boxes.join(';')}`;
			const running = page.document
				.getAnimations()
				.some((animation) => animation.playState === 'running');
			const previous = page.__still;
			page.__still = {
				key,
				frames: !running && previous?.key === key ? previous.frames + 1 : 0,
			};
			return page.__still.frames >= 10;
		},
		`${selector}, [data-test-id="ndv"], [data-test-id="parameter-item"]`,
		{ polling: 'raf', timeout: TIMEOUT_MS },
	);
}

async function capture(page: Page, shot: Shot): Promise<void> {
	await page.goto(shot.path);
	await page.locator(shot.readySelector).first().waitFor();
	// Options and field lists the panel loads from the emulators.
	await page.waitForLoadState('networkidle');
	await waitUntilStill(page, shot.readySelector);
	const file = path.join(OUT_DIR, shot.file);
	await page.screenshot({ path: file });
	console.log(`wrote ${path.relative(REPO_ROOT, file)}`);
}

async function main(): Promise<void> {
	fs.mkdirSync(OUT_DIR, { recursive: true });
	let cookie: string;
	try {
		cookie = await restLogin(N8N_URL, DEMO_OWNER);
	} catch (error) {
		throw new Error(`${(error as Error).message}; is the demo running (npm start)?`);
	}
	const shots = await plannedShots(cookie);
	ensureChromium();
	const browser = await launchChromium();
	let page: Page | undefined;
	try {
		const context = await newEditorContext(browser, N8N_URL);
		context.setDefaultTimeout(TIMEOUT_MS);
		await loginContext(context, DEMO_OWNER);
		page = await context.newPage();
		for (const shot of shots) await capture(page, shot);
	} catch (error) {
		const file = await debugScreenshot(page, 'screenshots-failure');
		if (file) console.error(`the page at the failure: ${path.relative(REPO_ROOT, file)}`);
		throw error;
	} finally {
		await browser.close();
	}
}

main().catch((error: unknown) => {
	console.error(`screenshots: ${(error as Error).message}`);
	process.exit(1);
});
