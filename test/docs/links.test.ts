import * as fs from 'node:fs';
import * as path from 'node:path';

import type { ICredentialType, INodeType } from 'n8n-workflow';

import { ArchiveAiMetadataApi } from '../../credentials/ArchiveAiMetadataApi.credentials';
import { ArchiveOrganizationApi } from '../../credentials/ArchiveOrganizationApi.credentials';
import { ArchiveSipWebhookApi } from '../../credentials/ArchiveSipWebhookApi.credentials';
import { ArchiveAiMetadata } from '../../nodes/ArchiveAiMetadata/ArchiveAiMetadata.node';
import { ArchiveAiMetadataTrigger } from '../../nodes/ArchiveAiMetadata/ArchiveAiMetadataTrigger.node';
import { ArchiveOrganization } from '../../nodes/ArchiveOrganization/ArchiveOrganization.node';
import { ArchiveSipStatusTrigger } from '../../nodes/ArchiveSipStatusTrigger/ArchiveSipStatusTrigger.node';

// The README is what n8n users read: the editor's documentation links (credentials' documentationUrl, nodes'
// documentationUrl and codex files) must land on the README section about that node or credential, and the
// links between README.md and docs/ must resolve.

const ROOT = path.join(__dirname, '..', '..');
const README_URL = 'https://github.com/archive-services/n8n-nodes-archive-services';
/** Every .md file under `dir` (relative to ROOT), in subfolders too. */
function markdownFilesUnder(dir: string): string[] {
	return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const file = `${dir}/${entry.name}`;
		if (entry.isDirectory()) return markdownFilesUnder(file);
		return entry.name.endsWith('.md') ? [file] : [];
	});
}

const MARKDOWN_FILES = ['README.md', ...markdownFilesUnder('docs')];

const credentials: ICredentialType[] = [
	new ArchiveAiMetadataApi(),
	new ArchiveOrganizationApi(),
	new ArchiveSipWebhookApi(),
];
const nodes: Array<{ folder: string; file: string; node: INodeType }> = [
	{ folder: 'ArchiveAiMetadata', file: 'ArchiveAiMetadata', node: new ArchiveAiMetadata() },
	{
		folder: 'ArchiveAiMetadata',
		file: 'ArchiveAiMetadataTrigger',
		node: new ArchiveAiMetadataTrigger(),
	},
	{ folder: 'ArchiveOrganization', file: 'ArchiveOrganization', node: new ArchiveOrganization() },
	{
		folder: 'ArchiveSipStatusTrigger',
		file: 'ArchiveSipStatusTrigger',
		node: new ArchiveSipStatusTrigger(),
	},
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, ... */
function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
	for (const [, heading] of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
		const slug = heading
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.replace(/\s/g, '-');
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		anchors.add(count === 0 ? slug : `${slug}-${count}`);
	}
	return anchors;
}

function readmeAnchorOf(url: string): string {
	expect(url.startsWith(`${README_URL}#`)).toBe(true);
	return url.slice(README_URL.length + 1);
}

function slugOf(title: string): string {
	return [...anchorsOf(`# ${title}`)][0];
}

const readmeAnchors = anchorsOf(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));

describe('documentation links shown in n8n', () => {
	it.each(credentials.map((credential) => [credential.displayName, credential] as const))(
		'credential %s links to its own README section',
		(displayName, credential) => {
			const anchor = readmeAnchorOf(credential.documentationUrl ?? '');
			expect(anchor).toBe(slugOf(displayName));
			expect(readmeAnchors).toContain(anchor);
		},
	);

	it.each(
		nodes.map(
			({ folder, file, node }) => [node.description.displayName, folder, file, node] as const,
		),
	)(
		'node %s and its codex file link to its README section and to its credential',
		(displayName, folder, file, node) => {
			const nodeAnchor = readmeAnchorOf(node.description.documentationUrl ?? '');
			expect(nodeAnchor).toBe(slugOf(displayName));
			expect(readmeAnchors).toContain(nodeAnchor);

			const codex = JSON.parse(
				fs.readFileSync(path.join(ROOT, 'nodes', folder, `${file}.node.json`), 'utf8'),
			) as {
				resources: {
					primaryDocumentation: Array<{ url: string }>;
					credentialDocumentation: Array<{ url: string }>;
				};
			};
			expect(codex.resources.primaryDocumentation.map(({ url }) => readmeAnchorOf(url))).toEqual([
				nodeAnchor,
			]);

			const credentialNames = (node.description.credentials ?? []).map(({ name }) => name);
			const credentialTitles = credentials
				.filter(({ name }) => credentialNames.includes(name))
				.map(({ displayName: title }) => title);
			expect(credentialTitles).toHaveLength(credentialNames.length);
			expect(codex.resources.credentialDocumentation.map(({ url }) => readmeAnchorOf(url))).toEqual(
				credentialTitles.map(slugOf),
			);
		},
	);
});

describe.each(MARKDOWN_FILES)('links in %s', (file) => {
	const markdown = fs.readFileSync(path.join(ROOT, file), 'utf8');
	const links = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
		.map(([, target]) => target)
		.filter((target) => !/^[a-z]+:/.test(target));

	it('point at files and headings that exist', () => {
		const broken = links.filter((link) => {
			const [target, anchor] = link.split('#');
			const targetFile =
				target === ''
					? path.join(ROOT, file)
					: path.resolve(path.dirname(path.join(ROOT, file)), target);
			if (!fs.existsSync(targetFile)) return true;
			if (anchor === undefined) return false;
			return (
				!targetFile.endsWith('.md') || !anchorsOf(fs.readFileSync(targetFile, 'utf8')).has(anchor)
			);
		});
		expect(broken).toEqual([]);
	});
});
