import { editorTexts } from './editorTexts';
import { problemsOf } from './englishRules';

/**
 * Every text the editor shows of the package (display names, descriptions, hints, notices, option names, action
 * names, placeholders), held to English as people write it: the article before a vowel sound, regular plurals,
 * acronyms in capitals, and no raw API value as an option's or a parameter's label.
 */

describe('texts the editor shows', () => {
	it('are in English as people write it', () => {
		const found = editorTexts()
			.map((text) => ({ ...text, problems: problemsOf(text) }))
			.filter((text) => text.problems.length > 0)
			.map((text) => `${text.where}: ${text.problems.join(', ')} in ${JSON.stringify(text.text)}`);
		expect(found).toEqual([]);
	});

	it('catches what it is for', () => {
		const problems = (text: string, label = false) =>
			problemsOf({ text, kind: label ? 'label' : 'description' });
		expect(problems('Get a image task')).toEqual(['"a image"']);
		expect(problems('Get an face task')).toEqual(['"an face"']);
		expect(problems('Download files of a NER task')).toEqual(['"a NER"']);
		expect(problems('Get an NER task and a unique ID')).toEqual([]);
		expect(problems('Count face matchs')).toEqual(['plural "matchs"']);
		expect(problems('the pid of a task')).toEqual(['acronym in lower case "pid"']);
		expect(problems('the `pid` column')).toEqual([]);
		expect(problems('asc_nulls_first', true)).toEqual([
			'raw API value as a label "asc_nulls_first"',
		]);
		expect(problems('ContentPartner', true)).toEqual(['raw API value as a label "ContentPartner"']);
		expect(problems('Ascending (Nulls First)', true)).toEqual([]);
	});
});
