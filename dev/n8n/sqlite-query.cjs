'use strict';
// Runs one read-only SQL query against an n8n sqlite database and prints the rows as JSON; with --write, one
// statement that changes it (n8n stopped), printing {"changes": N}.
// It runs under the Node 24 that n8n's sqlite3 addon was built for, with the modules n8n ships.
//   node sqlite-query.cjs [--write] <n8n package dir> <database file> <sql> [flatted column...]
// Columns named after the sql are decoded from n8n's "flatted" format (execution data).

const args = process.argv.slice(2);
const write = args[0] === '--write';
const [n8nPackageDir, databaseFile, sql, ...flattedColumns] = write ? args.slice(1) : args;
if (!n8nPackageDir || !databaseFile || !sql) {
	console.error(
		'usage: sqlite-query.cjs [--write] <n8n package dir> <database file> <sql> [flatted column...]',
	);
	process.exit(2);
}

const requireFromN8n = (name) => require(require.resolve(name, { paths: [n8nPackageDir] }));
const sqlite3 = requireFromN8n('sqlite3');
const flatted = requireFromN8n('flatted');

function decodeRow(row) {
	for (const column of flattedColumns) {
		if (typeof row[column] === 'string') row[column] = flatted.parse(row[column]);
	}
	return row;
}

const mode = write ? sqlite3.OPEN_READWRITE : sqlite3.OPEN_READONLY;
const db = new sqlite3.Database(databaseFile, mode, (openError) => {
	if (openError) {
		console.error(openError.message);
		process.exit(1);
	}
	// n8n may be writing at the same time; wait for its lock instead of failing.
	db.configure('busyTimeout', 10000);
	if (write) {
		db.run(sql, function (runError) {
			const changes = this ? this.changes : 0;
			db.close();
			if (runError) {
				console.error(runError.message);
				process.exit(1);
			}
			process.stdout.write(JSON.stringify({ changes }));
		});
		return;
	}
	db.all(sql, (queryError, rows) => {
		db.close();
		if (queryError) {
			console.error(queryError.message);
			process.exit(1);
		}
		process.stdout.write(JSON.stringify(rows.map(decodeRow)));
	});
});
