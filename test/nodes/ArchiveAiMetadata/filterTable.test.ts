import type { INode } from 'n8n-workflow';

import { buildWhere } from '../../../nodes/ArchiveAiMetadata/actions/filters';
import { escapeLikePattern } from '../../../nodes/ArchiveAiMetadata/api/documents';
import { documentedView } from '../../../nodes/ArchiveAiMetadata/api/views';
import type { ParameterContext } from '../../../nodes/shared/n8n/params';

// The friendly filters as a Hasura `where`, without a server: what reaches the API for each filter.

function context(timezone = 'UTC'): ParameterContext {
	return { getNode: () => ({ name: 'Archive AI Metadata' }) as INode, getTimezone: () => timezone };
}

const faceTasks = { ...documentedView('face_tasks'), live: true };

describe('the filter table: each filter as a Hasura condition', () => {
	it('no filters is no condition', () => {
		expect(buildWhere(context(), 0, faceTasks, {})).toEqual({});
	});

	it('one filter is its condition, several are combined with _and, the advanced filter last', () => {
		expect(buildWhere(context(), 0, faceTasks, { status: 'failed' })).toEqual({
			status: { _in: ['failed'] },
		});
		expect(
			buildWhere(context(), 0, faceTasks, {
				status: 'failed, succeeded',
				contentPartner: ['OR-1'],
				where: '{"pid": {"_eq": "x"}}',
			}),
		).toEqual({
			_and: [
				{ status: { _in: ['failed', 'succeeded'] } },
				{ cp: { _in: ['OR-1'] } },
				{ pid: { _eq: 'x' } },
			],
		});
	});

	it('empty filters are no filters', () => {
		expect(
			buildWhere(context(), 0, faceTasks, {
				status: '',
				contentPartner: ' , ',
				timeFrom: '',
				where: '',
			}),
		).toEqual({});
	});

	it('a time range without a zone is read in the workflow timezone', () => {
		expect(
			buildWhere(context('Europe/Brussels'), 0, faceTasks, {
				timeFrom: '2025-06-01T10:00:00',
				timeTo: '2025-06-02T00:00:00Z',
			}),
		).toEqual({
			_and: [
				{ [faceTasks.timeColumn]: { _gte: '2025-06-01T08:00:00.000Z' } },
				{ [faceTasks.timeColumn]: { _lt: '2025-06-02T00:00:00.000Z' } },
			],
		});
	});

	it('contains-text filters match LIKE wildcards literally', () => {
		expect(escapeLikePattern('50%_off\\')).toBe('50\\%\\_off\\\\');
		const matches = { ...documentedView('face_matches'), live: true };
		expect(buildWhere(context(), 0, matches, { personName: ' 100%_x ' })).toEqual({
			refset_person_name: { _ilike: '%100\\%\\_x%' },
		});
	});

	it('a filter on a column the live view lacks names the filter', () => {
		const refset = { ...documentedView('refset_persons'), live: true };
		expect(() => buildWhere(context(), 0, refset, { contentPartner: 'OR-1' })).toThrow(
			'Parameter "Content Partner Names or IDs": cannot be used here: refset_persons has no column "cp"',
		);
	});

	it('bad input names the parameter', () => {
		expect(() => buildWhere(context(), 0, faceTasks, { where: '{' })).toThrow(
			/^Parameter "Advanced Filter \(JSON\)": is not valid JSON/,
		);
		expect(() => buildWhere(context(), 0, faceTasks, { timeFrom: 'yesterday' })).toThrow(
			/^Parameter "Time From": is not an ISO 8601 date/,
		);
	});
});
