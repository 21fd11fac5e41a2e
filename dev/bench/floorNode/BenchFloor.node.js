'use strict';
// The scheduled export's floor (dev/bench/sections/scheduledExport.ts): a poll trigger that does nothing but emit
// rows it has parsed already, so the flow after it (n8n creating the execution from a poll's items, Convert to
// File, the write) is all that is measured. Loaded only into the bench's own n8n, beside the package; plain
// JavaScript because n8n loads it as it is.
const fs = require('node:fs');

class BenchFloor {
	constructor() {
		this.description = {
			displayName: 'Bench Floor',
			name: 'benchFloor',
			icon: 'fa:flag-checkered',
			group: ['trigger'],
			version: 1,
			description:
				'Emits the rows of a JSON file once, parsed before the clock starts (benchmark floor)',
			defaults: { name: 'Bench Floor' },
			polling: true,
			inputs: [],
			outputs: ['main'],
			properties: [
				{ displayName: 'Rows File', name: 'rowsFile', type: 'string', default: '' },
				{ displayName: 'Start File', name: 'startFile', type: 'string', default: '' },
			],
		};
	}

	async poll() {
		const rowsFile = this.getNodeParameter('rowsFile');
		const startFile = this.getNodeParameter('startFile');
		// Until the bench releases the rows, and once they went out, a poll finds nothing.
		if (!fs.existsSync(rowsFile) || fs.existsSync(startFile)) return null;
		const rows = JSON.parse(fs.readFileSync(rowsFile, 'utf8'));
		// The clock starts here, with the rows in memory as the API's pages would leave them.
		fs.writeFileSync(startFile, String(Date.now()));
		return [rows.map((json) => ({ json }))];
	}
}

module.exports = { BenchFloor };
