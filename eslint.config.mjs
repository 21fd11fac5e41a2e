// Lint with n8n's community-node rules: @n8n/eslint-plugin-community-nodes (flat config) plus the
// classic eslint-plugin-n8n-nodes-base rule sets for nodes, credentials and package.json.
import tseslint from 'typescript-eslint';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

const rulesOf = (config) => config.rules;

export default [
	{ ignores: ['dist/**', 'node_modules/**', '.build/**', 'test/**', 'scripts/**', '**/*.test.ts', '*.js', '*.mjs'] },
	{
		files: ['**/*.ts'],
		languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
	},
	{
		...n8nCommunityNodesPlugin.configs.recommended,
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
	},
	{
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: rulesOf(n8nNodesBase.configs.community),
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...rulesOf(n8nNodesBase.configs.credentials),
			// Built-in n8n credentials use a docs slug; community credentials must use a full URL (credential-documentation-url).
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
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
