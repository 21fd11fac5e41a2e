import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import {
	maxConcurrencyOption,
	maxRetriesOption,
	optionsCollection,
} from '../../shared/n8n/descriptions';
import { AI_VIEW_KEYS, AI_VIEWS } from '../api/views';
import type { AiViewKey } from '../api/views';
import { viewOutputParameter } from '../actions/common';
import { DEFAULT_TRIGGER_CONCURRENCY } from '../../shared/n8n/limits';
import { pluralOf } from '../../shared/n8n/english';

/** Views the trigger can watch: all, as each has a time that moves when a row is new or changed. */
export const TRIGGER_VIEWS = AI_VIEW_KEYS;
export type TriggerView = AiViewKey;

export const TASK_VIEWS: TriggerView[] = ['face_tasks', 'image_tasks', 'speech_tasks', 'ner_tasks'];
/** Views with a content partner column (all but the reference set). */
export const VIEWS_WITH_CP: TriggerView[] = TRIGGER_VIEWS.filter(
	(view) => view !== 'refset_persons',
);

export const DEFAULT_LATE_ROWS_WINDOW_MINUTES = 5;
export const MAX_LATE_ROWS_WINDOW_MINUTES = 1440;
/** A run not finished after this long (or one n8n could not start) has its records emitted again. */
export const DEFAULT_REEMIT_AFTER_MINUTES = 60;
export const MAX_REEMIT_AFTER_MINUTES = 1440;

export const DEFAULT_MAX_RECORDS_PER_POLL = 10_000;
export const DEFAULT_PAGE_SIZE = 1000;

/** Task statuses the documented schema names; the live list comes from the API (loadOptions). */
export const DOCUMENTED_STATUSES = ['succeeded', 'failed'];

/** The View list, in its alphabetical order: what each view's new records are. */
const VIEW_DESCRIPTIONS: Record<AiViewKey, string> = {
	face_matches:
		'Matches between persons detected in video and the reference set, when made (by matched_time)',
	face_tasks: 'Face and person detection tasks on video fragments, when processed',
	image_matches:
		'Matches between persons detected in photos and the reference set, when made (by matched_time)',
	image_tasks: 'Face and person detection tasks on photos, when processed',
	ner_tasks: 'Named entity recognition tasks, when processed',
	refset_persons: 'Persons of the reference set, when added or modified (by modified_at)',
	speech_tasks: 'Speech-to-text tasks (transcripts), when processed',
};

export const triggerProperties: INodeProperties[] = [
	{
		displayName: 'View',
		name: 'view',
		type: 'options',
		noDataExpression: true,
		options: Object.entries(VIEW_DESCRIPTIONS).map(([value, description]) => ({
			name: pluralOf(AI_VIEWS[value as AiViewKey].displayName),
			value,
			description,
		})),
		default: 'face_tasks',
		description:
			'Which AI metadata to watch. Each poll emits the records that are new or whose time moved (processed_time, matched_time or modified_at) since the previous poll, including rows that appear late within the Late Rows Window.',
	},
	{
		displayName: 'Status Names or IDs',
		name: 'statuses',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getStatuses', loadOptionsDependsOn: ['view'] },
		displayOptions: { show: { view: TASK_VIEWS } },
		default: ['succeeded'],
		description:
			'Only emit tasks with one of these statuses. Leave empty for every status. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Content Partner Names or IDs',
		name: 'contentPartners',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getContentPartners', loadOptionsDependsOn: ['view'] },
		displayOptions: { show: { view: VIEWS_WITH_CP } },
		default: [],
		description:
			'Only emit records of these content partners (cp, e.g. OR-abc1234). Leave empty for all. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	...AI_VIEW_KEYS.map((key) => viewOutputParameter(AI_VIEWS[key], { show: { view: [key] } })),
	{
		displayName: 'Field Names or IDs',
		name: 'fields',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getViewFields', loadOptionsDependsOn: ['view'] },
		displayOptions: { show: { output: ['selected'] } },
		default: [],
		description:
			'Columns to emit; the time and key columns always come along. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	optionsCollection(undefined, [
		{
			displayName: 'Emit As',
			name: 'emitAs',
			type: 'options',
			options: [
				{
					name: 'One Item per Record',
					value: 'eachRecord',
					description: 'Each record becomes its own item',
				},
				{
					name: 'One Item Holding All Records',
					value: 'oneItem',
					description:
						'A single item with the records of the poll in "records" (e.g. one export file per poll)',
				},
			],
			default: 'eachRecord',
			description: 'How the records of one poll are emitted',
		},
		{
			displayName: 'Keep Raw JSON Text',
			name: 'keepRawJson',
			type: 'boolean',
			default: false,
			description:
				'Whether raw output columns (e.g. transcript_json) stay the JSON text the API sends, to pass them on unchanged, instead of being parsed',
		},
		{
			displayName: 'Late Rows Window (Minutes)',
			name: 'lateRowsWindow',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_LATE_ROWS_WINDOW_MINUTES, numberPrecision: 2 },
			default: DEFAULT_LATE_ROWS_WINDOW_MINUTES,
			description:
				'Also emit rows that appear late (a late commit, replication lag) when their time is at most this many minutes before the newest time emitted. 0 emits only rows from that time on.',
		},
		maxConcurrencyOption(
			'How many pages are requested at the same time when many records are new. More than the default helps only over long distances, and asks more of the API.',
			DEFAULT_TRIGGER_CONCURRENCY,
		),
		{
			displayName: 'Max Records per Poll',
			name: 'maxRecordsPerPoll',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_MAX_RECORDS_PER_POLL,
			description:
				'The most records one poll emits. The rest follow on the next poll, in order; none are dropped.',
		},
		maxRetriesOption('poll'),
		{
			displayName: 'Page Size',
			name: 'pageSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 10000 },
			default: DEFAULT_PAGE_SIZE,
			description: 'Records asked for per request. Lower it if the API times out on large pages.',
		},
		{
			displayName: 'Re-Emit Unfinished Run After (Minutes)',
			name: 'reemitAfterMinutes',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_REEMIT_AFTER_MINUTES },
			default: DEFAULT_REEMIT_AFTER_MINUTES,
			description:
				'The trigger waits for the run it started to finish, so no record is skipped when n8n stops. A run not finished after this many minutes has its records emitted again.',
		},
		{
			displayName: 'Start From',
			name: 'startFrom',
			type: 'dateTime',
			default: '',
			description:
				'On first activation, also emit records from this moment on (without a zone, the workflow timezone applies). Without it, only records newer than the activation are emitted; changing it starts over.',
		},
	]),
];

/** The canvas subtitle names the chosen view as the list does ("New Speech Tasks"), not by its API name. */
const viewNames = Object.fromEntries(
	(triggerProperties[0].options as INodePropertyOptions[]).map(({ name, value }) => [
		String(value),
		name,
	]),
);
export const TRIGGER_SUBTITLE = `={{"New " + (${JSON.stringify(viewNames)}[$parameter["view"]] || $parameter["view"])}}`;
