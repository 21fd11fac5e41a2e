#!/usr/bin/env node
// Fails on exports of the product (nodes/, credentials/) that no other file imports, on import cycles among
// product files, and on imports against the grain: a file of dev/, nodes/, credentials/ or scripts/ (TypeScript or
// JavaScript) that imports from test/ (tests may import dev/, never the other way). One TypeScript program over the
// repo (tsconfig.test.json: product, dev/, test/, scripts/); the JavaScript files are read on their own.
//
// An export counts as used when another file imports it by name (import, `import type`, re-export, typed
// `import('…').Name`, or a destructured require()/import()), imports the whole module (`import * as`, `export *`,
// a bare require()/import()), or when it is an entry point listed in package.json "n8n" (the node and credential
// classes n8n loads). A use within its own file does not count: such a name need not be exported.
//
//   node scripts/check-exports.js      prints `file:line name` per unused export, each cycle and each import from
//                                      test/ outside test/; exit 1 if any
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const root = path.resolve(__dirname, '..');
const PRODUCT_DIRS = ['nodes', 'credentials'];
/** Folders whose files must not import from test/. */
const NOT_FROM_TEST_DIRS = ['dev', 'nodes', 'credentials', 'scripts'];
const SCRIPT_EXTENSIONS = ['.ts', '.js', '.mjs', '.cjs'];

function isProduct(fileName) {
	const relative = path.relative(root, fileName).split(path.sep);
	return PRODUCT_DIRS.includes(relative[0]) && !fileName.endsWith('.test.ts');
}

function createProgram() {
	const configPath = path.join(root, 'tsconfig.test.json');
	const config = ts.readConfigFile(configPath, ts.sys.readFile);
	const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root, undefined, configPath);
	return ts.createProgram({
		rootNames: parsed.fileNames,
		options: { ...parsed.options, noEmit: true },
	});
}

// The classes n8n loads: dist/nodes/X/Y.node.js -> nodes/X/Y.node.ts exporting class Y.
function entryPoints() {
	const manifest = require(path.join(root, 'package.json')).n8n;
	const entries = new Map();
	for (const built of [...manifest.nodes, ...manifest.credentials]) {
		const source = path.join(root, built.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
		entries.set(source, path.basename(built).split('.')[0]);
	}
	return entries;
}

function main() {
	const program = createProgram();
	const checker = program.getTypeChecker();
	const files = program
		.getSourceFiles()
		.filter((file) => !file.isDeclarationFile && !file.fileName.includes('/node_modules/'));
	const used = new Set(); // symbols
	const wholeModules = new Set(); // file names whose every export is used
	const imports = new Map(); // product file -> product files it imports

	const moduleFile = (specifier) => {
		const symbol = checker.getSymbolAtLocation(specifier);
		const declaration = symbol && symbol.declarations && symbol.declarations[0];
		return declaration && ts.isSourceFile(declaration) ? declaration : undefined;
	};
	// Marks a symbol and every alias it goes through (re-exports) as used.
	const markAlias = (symbol) => {
		let current = symbol;
		for (let step = 0; current && step < 20; step++) {
			used.add(current);
			if (!(current.flags & ts.SymbolFlags.Alias)) return;
			current = checker.getImmediateAliasedSymbol(current);
		}
	};
	const markExport = (target, name) => {
		const moduleSymbol = checker.getSymbolAtLocation(target);
		if (!moduleSymbol) return;
		const exported = checker
			.getExportsOfModule(moduleSymbol)
			.find((symbol) => symbol.name === name);
		if (exported) markAlias(exported);
	};
	const addEdge = (from, to) => {
		if (!to || !isProduct(from.fileName) || !isProduct(to.fileName)) return;
		if (!imports.has(from.fileName)) imports.set(from.fileName, new Set());
		imports.get(from.fileName).add(to.fileName);
	};

	for (const file of files) {
		const visit = (node) => {
			if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
				const target = moduleFile(node.moduleSpecifier);
				addEdge(file, target);
				if (target && ts.isImportDeclaration(node)) {
					const clause = node.importClause;
					const bindings = clause && clause.namedBindings;
					if (clause && clause.name) markAlias(checker.getSymbolAtLocation(clause.name));
					if (bindings && ts.isNamespaceImport(bindings)) wholeModules.add(target.fileName);
					if (bindings && ts.isNamedImports(bindings)) {
						for (const element of bindings.elements)
							markAlias(checker.getSymbolAtLocation(element.name));
					}
				} else if (target) {
					if (!node.exportClause || ts.isNamespaceExport(node.exportClause))
						wholeModules.add(target.fileName);
					else
						for (const element of node.exportClause.elements)
							markAlias(checker.getSymbolAtLocation(element.name));
				}
			} else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
				const target = moduleFile(node.argument.literal);
				addEdge(file, target);
				if (target && node.qualifier)
					markExport(
						node.argument.literal,
						ts.isIdentifier(node.qualifier) ? node.qualifier.text : node.qualifier.left.getText(),
					);
				else if (target) wholeModules.add(target.fileName);
			} else if (
				ts.isCallExpression(node) &&
				node.arguments.length === 1 &&
				ts.isStringLiteralLike(node.arguments[0]) &&
				(node.expression.kind === ts.SyntaxKind.ImportKeyword ||
					(ts.isIdentifier(node.expression) && node.expression.text === 'require'))
			) {
				const target = moduleFile(node.arguments[0]);
				if (target) {
					addEdge(file, target);
					let holder = node.parent;
					while (
						holder &&
						(ts.isAwaitExpression(holder) ||
							ts.isAsExpression(holder) ||
							ts.isParenthesizedExpression(holder))
					) {
						holder = holder.parent;
					}
					if (
						holder &&
						ts.isVariableDeclaration(holder) &&
						ts.isObjectBindingPattern(holder.name)
					) {
						for (const element of holder.name.elements) {
							const name = element.propertyName || element.name;
							if (ts.isIdentifier(name)) markExport(node.arguments[0], name.text);
						}
					} else {
						wholeModules.add(target.fileName);
					}
				}
			}
			ts.forEachChild(node, visit);
		};
		visit(file);
	}

	const entries = entryPoints();
	const unused = [];
	for (const file of files) {
		if (!isProduct(file.fileName) || wholeModules.has(file.fileName)) continue;
		const moduleSymbol = checker.getSymbolAtLocation(file);
		if (!moduleSymbol) continue;
		for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
			if (used.has(symbol) || entries.get(file.fileName) === symbol.name) continue;
			const declaration = (symbol.declarations || []).find((d) => d.getSourceFile() === file);
			if (!declaration) continue; // re-exported through `export *`: judged in its own file
			const { line } = file.getLineAndCharacterOfPosition(declaration.getStart());
			unused.push(`${path.relative(root, file.fileName)}:${line + 1} ${symbol.name}`);
		}
	}

	const cycles = findCycles(imports).map((cycle) =>
		cycle.map((f) => path.relative(root, f)).join(' -> '),
	);
	const fromTest = importsFromTest();
	for (const line of unused.sort()) console.log(`unused export: ${line}`);
	for (const cycle of cycles) console.log(`import cycle: ${cycle}`);
	for (const line of fromTest) console.log(`import from test/: ${line}`);
	if (unused.length > 0 || cycles.length > 0 || fromTest.length > 0) {
		console.error(
			`check-exports: ${unused.length} unused export(s), ${cycles.length} import cycle(s), ${fromTest.length} import(s) from test/`,
		);
		process.exit(1);
	}
	console.log(
		`check-exports: no unused exports, no import cycles, no imports from test/ (${files.length} files)`,
	);
}

/** Every source file under `dir` (recursively), node_modules left out. */
function sourceFiles(dir) {
	if (!fs.existsSync(dir)) return [];
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
		return SCRIPT_EXTENSIONS.some((extension) => entry.name.endsWith(extension)) &&
			!entry.name.endsWith('.d.ts')
			? [full]
			: [];
	});
}

/** The module specifiers of a file: imports, re-exports, `import('…')` types, require() and import() calls. */
function specifiersOf(sourceFile) {
	const found = [];
	const visit = (node) => {
		if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
			if (ts.isStringLiteralLike(node.moduleSpecifier)) found.push(node.moduleSpecifier);
		} else if (ts.isImportEqualsDeclaration(node)) {
			const reference = node.moduleReference;
			if (ts.isExternalModuleReference(reference) && ts.isStringLiteralLike(reference.expression))
				found.push(reference.expression);
		} else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
			if (ts.isStringLiteralLike(node.argument.literal)) found.push(node.argument.literal);
		} else if (
			ts.isCallExpression(node) &&
			node.arguments.length >= 1 &&
			ts.isStringLiteralLike(node.arguments[0]) &&
			(node.expression.kind === ts.SyntaxKind.ImportKeyword ||
				(ts.isIdentifier(node.expression) && node.expression.text === 'require') ||
				// require.resolve('…')
				(ts.isPropertyAccessExpression(node.expression) &&
					ts.isIdentifier(node.expression.expression) &&
					node.expression.expression.text === 'require'))
		) {
			found.push(node.arguments[0]);
		}
		ts.forEachChild(node, visit);
	};
	visit(sourceFile);
	return found;
}

/** Imports against the grain: `file:line specifier` for each relative import that lands in test/. */
function importsFromTest() {
	const testDir = path.join(root, 'test');
	const problems = [];
	for (const dir of NOT_FROM_TEST_DIRS) {
		for (const fileName of sourceFiles(path.join(root, dir))) {
			const text = fs.readFileSync(fileName, 'utf8');
			const sourceFile = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
			for (const literal of specifiersOf(sourceFile)) {
				const specifier = literal.text;
				if (!specifier.startsWith('.') && !path.isAbsolute(specifier)) continue;
				const target = path.resolve(path.dirname(fileName), specifier);
				const relative = path.relative(testDir, target);
				if (relative.startsWith('..') || path.isAbsolute(relative)) continue;
				const { line } = sourceFile.getLineAndCharacterOfPosition(literal.getStart());
				problems.push(`${path.relative(root, fileName)}:${line + 1} ${specifier}`);
			}
		}
	}
	return problems.sort();
}

// Strongly connected components (Tarjan); each with more than one file, or a file importing itself, is a cycle.
function findCycles(graph) {
	const index = new Map();
	const low = new Map();
	const stack = [];
	const onStack = new Set();
	const cycles = [];
	let next = 0;
	const connect = (node) => {
		index.set(node, next);
		low.set(node, next);
		next++;
		stack.push(node);
		onStack.add(node);
		for (const target of graph.get(node) || []) {
			if (!index.has(target)) {
				connect(target);
				low.set(node, Math.min(low.get(node), low.get(target)));
			} else if (onStack.has(target)) {
				low.set(node, Math.min(low.get(node), index.get(target)));
			}
		}
		if (low.get(node) === index.get(node)) {
			const component = [];
			let member;
			do {
				member = stack.pop();
				onStack.delete(member);
				component.push(member);
			} while (member !== node);
			if (component.length > 1 || (graph.get(node) || new Set()).has(node))
				cycles.push(component.sort());
		}
	};
	for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
	return cycles;
}

main();
