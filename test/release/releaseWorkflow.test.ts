import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { load } from 'js-yaml';

// The release workflow cannot run here (it publishes to npm): these tests read it as GitHub Actions would and check
// that it builds, tests and publishes with provenance from a version tag, in that order.

const ROOT = path.join(__dirname, '..', '..');
const WORKFLOW_FILE = path.join(ROOT, '.github', 'workflows', 'release.yml');

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, unknown>;
}

interface Job {
	'runs-on': string;
	permissions?: Record<string, string>;
	steps: Step[];
}

interface Workflow {
	on: { push?: { tags?: string[]; branches?: string[] } };
	permissions?: Record<string, string>;
	jobs: Record<string, Job>;
}

function readWorkflow(): Workflow {
	return load(fs.readFileSync(WORKFLOW_FILE, 'utf8')) as Workflow;
}

function releaseJob(workflow: Workflow): Job {
	const jobs = Object.values(workflow.jobs);
	expect(jobs).toHaveLength(1);
	return jobs[0];
}

/** Index of the only step whose `run` command matches, so order checks cannot pick the wrong one. */
function stepRunning(job: Job, command: RegExp): number {
	const matches = job.steps.flatMap((step, index) =>
		step.run !== undefined && command.test(step.run) ? [index] : [],
	);
	expect(matches).toHaveLength(1);
	return matches[0];
}

/** GitHub's tag filter patterns (the subset used here): `[0-9]` classes, `+` for one or more, `*` for anything. */
function tagFilterMatches(pattern: string, tag: string): boolean {
	const regex = pattern.replace(/[.]/g, '\\.').replace(/\*/g, '.*');
	return new RegExp(`^${regex}$`).test(tag);
}

function checkRelease(tag: string, root = ROOT) {
	return spawnSync(process.execPath, [path.join(root, 'scripts', 'check-release.js'), tag], {
		encoding: 'utf8',
	});
}

/** A copy of the script in a temp package with the given version and changelog. */
function tempRelease(version: string, changelog: string): string {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'check-release-'));
	fs.mkdirSync(path.join(root, 'scripts'));
	fs.copyFileSync(
		path.join(ROOT, 'scripts', 'check-release.js'),
		path.join(root, 'scripts', 'check-release.js'),
	);
	fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'temp', version }));
	fs.writeFileSync(path.join(root, 'CHANGELOG.md'), changelog);
	return root;
}

describe('release workflow (.github/workflows/release.yml)', () => {
	const workflow = readWorkflow();
	const job = releaseJob(workflow);

	it('runs on version tags only', () => {
		const tags = workflow.on.push?.tags ?? [];
		expect(workflow.on.push?.branches).toBeUndefined();
		expect(tags.some((pattern) => tagFilterMatches(pattern, 'v1.2.3'))).toBe(true);
		expect(tags.some((pattern) => tagFilterMatches(pattern, 'v10.20.30'))).toBe(true);
		for (const tag of ['1.2.3', 'v1.2', 'latest', 'v1.2.3-rc']) {
			expect(tags.some((pattern) => tagFilterMatches(pattern, tag))).toBe(false);
		}
	});

	it('may write an OIDC token (npm provenance) and otherwise only read', () => {
		expect(workflow.permissions).toEqual({ contents: 'read' });
		expect(job.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
	});

	it('checks out, sets up the npm registry, then checks the tag, installs, tests, builds and publishes in that order', () => {
		const checkout = job.steps.findIndex((step) => step.uses?.startsWith('actions/checkout@'));
		const setupNode = job.steps.findIndex((step) => step.uses?.startsWith('actions/setup-node@'));
		expect(checkout).toBe(0);
		expect(setupNode).toBeGreaterThan(checkout);
		expect(job.steps[setupNode].with?.['registry-url']).toBe('https://registry.npmjs.org');

		const order = [
			stepRunning(job, /^node scripts\/check-release\.js "\$GITHUB_REF_NAME"$/),
			stepRunning(job, /^npm ci$/),
			stepRunning(job, /^npm test$/),
			stepRunning(job, /^npm run build$/),
			stepRunning(job, /^npm publish\b/),
		];
		expect(order[0]).toBeGreaterThan(setupNode);
		expect([...order].sort((a, b) => a - b)).toEqual(order);
	});

	it('publishes with provenance, authenticated by the repository secret', () => {
		const publish = job.steps[stepRunning(job, /^npm publish\b/)];
		expect(publish.run?.split(/\s+/)).toEqual(
			expect.arrayContaining(['--provenance', '--access', 'public']),
		);
		expect(publish.env).toEqual({ NODE_AUTH_TOKEN: '${{ secrets.NPM_TOKEN }}' });
	});
});

describe('scripts/check-release.js', () => {
	const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
		version: string;
	};

	it('accepts v<package.json version> when CHANGELOG.md has its section', () => {
		const result = checkRelease(`v${version}`);
		expect(result.stderr).toBe('');
		expect(result.status).toBe(0);
	});

	it('refuses a tag that is not v<package.json version>, naming both', () => {
		for (const tag of [version, `v${version}.1`, 'v999.0.0']) {
			const result = checkRelease(tag);
			expect(result.status).toBe(1);
			expect(result.stderr).toContain(
				`tag "${tag}" does not match package.json version ${version}`,
			);
		}
	});

	it('refuses a version that CHANGELOG.md has no section for', () => {
		const root = tempRelease(
			'2.3.4',
			'# Changelog\n\n## [Unreleased]\n\n## [2.3.3] - 2026-01-01\n',
		);
		try {
			const result = checkRelease('v2.3.4', root);
			expect(result.status).toBe(1);
			expect(result.stderr).toContain('CHANGELOG.md has no "## [2.3.4]" section');
			fs.appendFileSync(path.join(root, 'CHANGELOG.md'), '\n## [2.3.4] - 2026-02-01\n');
			expect(checkRelease('v2.3.4', root).status).toBe(0);
		} finally {
			fs.rmSync(root, { recursive: true, force: true });
		}
	});
});
