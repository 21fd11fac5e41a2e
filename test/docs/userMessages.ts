import * as fs from 'node:fs';
import * as path from 'node:path';

import * as ts from 'typescript';

/**
 * The texts a user can meet, read from the published source (nodes/ and credentials/, tests excluded) with the
 * TypeScript parser, so that docs/troubleshooting.md can be checked against them. A text is a string or template
 * literal that is
 * - an argument of `new …Error(…)` (`NodeOperationError`, `NodeApiError`, `Error`, …) or of a function whose name
 *   ends in `Error` (`parameterError`, `tokenError`, …) or of `fail(…)`, directly or as the value of a `message` property (error
 *   descriptions passed as `description` say what to do and are not collected);
 * - a message of `addExecutionHints({ message })`;
 * - a log line (`logger.warn/error/info(…)`);
 * - an HTTP answer of the SIP trigger: `sendError(…)`, or the value of an `error`, `reason`, `warning` or
 *   `refusal` property (download refusals, credential warnings too);
 * - a value of a constant whose name ends in `MESSAGES`;
 * - returned by a function whose name ends in `Message`, `Hint` or `Refusal` (`statusMessage`, `retryLaterHint`).
 * Its fixed words are the longest run of the literal between `${…}` parts; runs of fewer than three words (a
 * status code, a name) are not collected.
 */

const ROOT = path.join(__dirname, '..', '..');
const SOURCE_DIRS = ['nodes', 'credentials'];
const MESSAGE_PROPERTIES = new Set(['message']);
const ANSWER_PROPERTIES = new Set(['error', 'reason', 'warning', 'refusal']);
const LOG_METHODS = new Set(['warn', 'error', 'info']);
const MIN_WORDS = 3;

export interface UserMessage {
	/** The literal's fixed words, whitespace collapsed. */
	text: string;
	file: string;
	line: number;
}

function sourceFiles(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(full);
		return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
	});
}

function calleeName(expression: ts.Expression): string | undefined {
	if (ts.isIdentifier(expression)) return expression.text;
	if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
	return undefined;
}

/** The literal's parts between `${…}`: one for a plain string. */
function fixedParts(node: ts.Node): string[] | undefined {
	if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
	if (ts.isTemplateExpression(node)) {
		return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
	}
	return undefined;
}

function fixedWords(parts: string[]): string | undefined {
	const longest = parts
		.map((part) => part.replace(/\s+/g, ' ').replace(/^[\s:;,.()'"]+|[\s:;,('"]+$/g, ''))
		.reduce((best, part) => (part.length > best.length ? part : best), '');
	const words = longest.split(' ').filter((word) => /[a-z]{2}/i.test(word));
	return words.length >= MIN_WORDS ? longest : undefined;
}

/** Why this literal is shown to a user, or undefined when it is not collected. */
function isUserText(literal: ts.Node): boolean {
	let child: ts.Node = literal;
	let parent: ts.Node | undefined = literal.parent;
	// A literal inside a conditional (`a ? 'x' : 'y'`) or parentheses is read as its surroundings.
	while (
		parent &&
		(ts.isConditionalExpression(parent) ||
			ts.isParenthesizedExpression(parent) ||
			ts.isBinaryExpression(parent))
	) {
		child = parent;
		parent = parent.parent;
	}
	if (!parent) return false;
	if (ts.isReturnStatement(parent) || ts.isArrowFunction(parent)) return isMessageFunction(parent);
	if (ts.isPropertyAssignment(parent) && parent.initializer === child) {
		const name = parent.name.getText();
		if (ANSWER_PROPERTIES.has(name)) return true;
		const object = parent.parent;
		const call = object.parent;
		if (
			MESSAGE_PROPERTIES.has(name) &&
			(ts.isNewExpression(call) || ts.isCallExpression(call)) &&
			isErrorOrHintCall(call)
		) {
			return true;
		}
		// A table of messages: `const SOMETHING_MESSAGES = { kind: '…' }`.
		const declaration = object.parent;
		return (
			ts.isVariableDeclaration(declaration) &&
			ts.isIdentifier(declaration.name) &&
			/MESSAGES$/.test(declaration.name.text)
		);
	}
	if ((ts.isNewExpression(parent) || ts.isCallExpression(parent)) && parent.expression !== child) {
		if (isErrorOrHintCall(parent)) return true;
		const name = calleeName(parent.expression);
		if (name === 'sendError') return true;
		if (
			name !== undefined &&
			LOG_METHODS.has(name) &&
			ts.isPropertyAccessExpression(parent.expression) &&
			/logger$/i.test(parent.expression.expression.getText())
		) {
			return true;
		}
	}
	return false;
}

/** A function whose name says it builds a message: `statusMessage`, `retryLaterHint`, `privateRefusal`. */
function isMessageFunction(node: ts.Node): boolean {
	let scope: ts.Node | undefined = node;
	while (scope && !ts.isFunctionLike(scope)) scope = scope.parent;
	if (scope && ts.isArrowFunction(scope) && ts.isVariableDeclaration(scope.parent)) {
		scope = scope.parent;
	}
	const name = scope && (scope as { name?: ts.Node }).name;
	return name !== undefined && ts.isIdentifier(name) && /(Message|Hint|Refusal)$/.test(name.text);
}

function isErrorOrHintCall(call: ts.NewExpression | ts.CallExpression): boolean {
	const name = calleeName(call.expression);
	if (name === undefined) return false;
	if (ts.isNewExpression(call)) return /Error$/.test(name);
	return name === 'addExecutionHints' || name === 'fail' || /^[a-z]\w*Error$/.test(name);
}

/** Every user text of the published source, in file order. */
export function userMessages(): UserMessage[] {
	const found: UserMessage[] = [];
	for (const file of SOURCE_DIRS.flatMap((dir) => sourceFiles(path.join(ROOT, dir)))) {
		const source = ts.createSourceFile(
			file,
			fs.readFileSync(file, 'utf8'),
			ts.ScriptTarget.Latest,
			true,
		);
		const visit = (node: ts.Node): void => {
			const parts = fixedParts(node);
			if (parts && isUserText(node)) {
				const text = fixedWords(parts);
				if (text !== undefined) {
					found.push({
						text,
						file: path.relative(ROOT, file),
						line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
					});
				}
				return;
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return found;
}

/** Markdown as a reader sees its words: code marks, emphasis and escapes dropped, whitespace collapsed. */
export function plainText(markdown: string): string {
	return markdown
		.replace(/[`*]/g, '')
		.replace(/\\([\\_|[\]])/g, '$1')
		.replace(/\s+/g, ' ');
}
