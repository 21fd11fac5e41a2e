/**
 * `npm run examples`: writes examples/*.json, the importable example workflows, from scripts/examples/workflows.ts
 * (formatted by Prettier). test/dev/examples.test.ts fails when the committed files differ from what this writes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as prettier from 'prettier';

import { EXAMPLES_DIR } from './examples/files';
import { exampleWorkflows } from './examples/workflows';

async function main(): Promise<void> {
	fs.mkdirSync(EXAMPLES_DIR, { recursive: true });
	for (const [name, workflow] of Object.entries(exampleWorkflows())) {
		const file = path.join(EXAMPLES_DIR, name);
		const config = (await prettier.resolveConfig(file)) ?? {};
		const text = await prettier.format(JSON.stringify(workflow), { ...config, filepath: file });
		fs.writeFileSync(file, text);
		console.log(`wrote ${path.relative(process.cwd(), file)}`);
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
