// One lint over the repository (`npm run lint` is `eslint .`):
// - everywhere: typescript-eslint's recommended rules, type-aware on TypeScript (one program, tsconfig.test.json:
//   product, dev/, test/, scripts/), the non-type-aware set on plain JavaScript (root configs, scripts/, dev/);
// - import-x/no-cycle: no import cycles, in the product and the harness alike;
// - import-x/no-restricted-paths (imports, require(), import()) and no-restricted-syntax (`import('…')` types):
//   the product (nodes/, credentials/) depends on nothing in test/ or dev/, and dev/ and scripts/ on nothing in
//   test/ (tests may import dev/, never the other way);
// - on the published code: n8n's community-node rules, @n8n/eslint-plugin-community-nodes (flat config) plus the
//   classic eslint-plugin-n8n-nodes-base rule sets for nodes, credentials and package.json.
// Every rule turned off says why on its line. Unused files, exports and dependencies are knip's (knip.jsonc), the
// published package.json is publint's (docs/development.md#static-checks).
import tseslint from 'typescript-eslint';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

const rulesOf = (config) => config.rules;
const TS = ['**/*.ts'];
const JS = ['**/*.js', '**/*.cjs', '**/*.mjs'];
const PRODUCT = ['nodes/**/*.ts', 'credentials/**/*.ts'];
const withFiles = (configs, files) => configs.map((config) => ({ ...config, files }));
/** `import('…')` types whose relative path enters one of `folders` (e.g. '../../test/x'). */
const importTypeFrom = (folders, message) => ({
	selector: `TSImportType[source.value=/^(\\.\\.\\/)+(${folders.join('|')})\\//]`,
	message,
});
const NOT_FROM_TEST_OR_DEV =
	'The published code must not depend on tests or the development harness.';
const NOT_FROM_TEST = 'Tests may import dev/ and scripts/, not the other way.';

export default [
	{ ignores: ['dist/**', '.build/**', 'coverage/**', '.n8n-demo/**', '**/node_modules/**'] },

	// typescript-eslint: type-aware on TypeScript, the plain recommended set on JavaScript.
	...withFiles(tseslint.configs.recommendedTypeChecked, TS),
	{
		files: TS,
		languageOptions: {
			parserOptions: {
				sourceType: 'module',
				project: './tsconfig.test.json',
				tsconfigRootDir: import.meta.dirname,
			},
		},
		rules: {
			// n8n's interfaces (authenticate, webhookMethods, credential tests) and the harness's stubs of n8n's
			// functions must return a Promise: an async body without await does so and turns a throw into a rejection.
			'@typescript-eslint/require-await': 'off',
			// The project's convention (tsconfig's noUnused* checks agree): a leading _ marks a name kept on purpose,
			// and `{ ref: _ref, ...rest }` leaves a property out.
			'@typescript-eslint/no-unused-vars': [
				'error',
				{
					argsIgnorePattern: '^_',
					varsIgnorePattern: '^_',
					caughtErrorsIgnorePattern: '^_',
					ignoreRestSiblings: true,
				},
			],
		},
	},
	{
		files: ['test/**/*.ts'],
		rules: {
			// Tests stringify fields of rows they seeded or asserted (n8n's IDataObject: any JSON value); a field that
			// is an object fails the assertion that reads it anyway.
			'@typescript-eslint/no-base-to-string': 'off',
			'@typescript-eslint/restrict-template-expressions': 'off',
		},
	},
	{
		files: ['test/**/*.test.ts'],
		rules: {
			// jest's asymmetric matchers (expect.any, expect.objectContaining, expect.stringMatching) are typed any.
			'@typescript-eslint/no-unsafe-assignment': 'off',
		},
	},
	...withFiles(tseslint.configs.recommended, JS),
	{
		files: ['**/*.js', '**/*.cjs'],
		languageOptions: { sourceType: 'commonjs' },
		rules: {
			// CommonJS files (gulpfile, jest configs, scripts run by plain node): require() is their module system.
			'@typescript-eslint/no-require-imports': 'off',
		},
	},

	// Imports: no cycles; nothing against the grain.
	{
		files: [...TS, ...JS],
		plugins: { 'import-x': importX },
		settings: {
			'import-x/resolver-next': [
				createNodeResolver({ extensions: ['.ts', '.js', '.cjs', '.mjs', '.json', '.node'] }),
			],
			'import-x/extensions': ['.ts', '.js', '.cjs', '.mjs'],
		},
		rules: {
			'import-x/no-cycle': 'error',
			'import-x/no-restricted-paths': [
				'error',
				{
					zones: [
						{
							target: ['./nodes', './credentials'],
							from: ['./test', './dev'],
							message: NOT_FROM_TEST_OR_DEV,
						},
						{ target: ['./dev', './scripts'], from: './test', message: NOT_FROM_TEST },
					],
				},
			],
		},
	},
	{
		files: PRODUCT,
		rules: {
			'no-restricted-syntax': ['error', importTypeFrom(['test', 'dev'], NOT_FROM_TEST_OR_DEV)],
		},
	},
	{
		files: ['dev/**/*.ts', 'scripts/**/*.ts'],
		rules: { 'no-restricted-syntax': ['error', importTypeFrom(['test'], NOT_FROM_TEST)] },
	},

	// n8n's rules on the published code.
	{
		...n8nCommunityNodesPlugin.configs.recommended,
		files: [...PRODUCT, 'package.json'],
		ignores: ['**/*.test.ts'],
	},
	{
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: rulesOf(n8nNodesBase.configs.community),
	},
	{
		files: ['credentials/**/*.ts'],
		ignores: ['**/*.test.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...rulesOf(n8nNodesBase.configs.credentials),
			// Built-in n8n credentials use a docs slug; community credentials must use a full URL (credential-documentation-url).
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		ignores: ['**/*.test.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...rulesOf(n8nNodesBase.configs.nodes),
			// Our package has no vendor SVG sources to compare names with; icon files are checked by icon-validation.
			'n8n-nodes-base/node-class-description-icon-not-svg': 'off',
			// These expect the string 'main'; the community rule node-connection-type-literal requires NodeConnectionTypes.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-inputs-wrong-trigger-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
];
