import { ArchiveAiMetadataTrigger } from '../../nodes/ArchiveAiMetadata/ArchiveAiMetadataTrigger.node';
import { editorTexts } from './editorTexts';

// Help a builder reads in one breath: every description, hint, notice and trigger-panel text is at most two
// sentences and 40 words. The sentence n8n's lint asks of every dynamic list ("Choose from the list, or specify
// IDs using an expression") is n8n's own and not counted.

const MAX_WORDS = 40;
const MAX_SENTENCES = 2;
const N8N_LIST_SENTENCE =
	/Choose from the list, or specify (IDs|a name) using an <a href="https:\/\/docs\.n8n\.io\/code\/expressions\/">expression<\/a>\./;

function plainText(text: string): string {
	return text
		.replace(N8N_LIST_SENTENCE, '')
		.replace(/<[^>]+>/g, ' ')
		.trim();
}

const wordsIn = (text: string) => plainText(text).split(/\s+/).filter(Boolean).length;
/** Sentence ends: ., ! or ? before a space or the end, not counting abbreviations such as "e.g.". */
const sentencesIn = (text: string) =>
	(
		plainText(text)
			.replace(/\b(e\.g|i\.e|etc)\./g, '')
			.match(/[.!?](\s|$)/g) ?? []
	).length || 1;

const texts = editorTexts();
/** Help a builder reads: descriptions, hints, notices and trigger-panel texts. */
const allTexts = texts
	.filter((text) => text.kind === 'description' || text.kind === 'hint' || text.kind === 'notice')
	.map(
		({ where, text, kind }) =>
			[kind === 'description' ? where : `${where} (${kind})`, text] as const,
	);
const uniqueTexts = [...new Map(allTexts.map(([where, text]) => [text, where])).entries()].map(
	([text, where]) => [where, text] as const,
);

describe('help text', () => {
	it('covers every node and credential', () => {
		expect(uniqueTexts.length).toBeGreaterThan(100);
		expect(allTexts.some(([where]) => where.includes('trigger panel'))).toBe(true);
	});

	it.each(uniqueTexts)(
		`%s: at most ${MAX_SENTENCES} sentences and ${MAX_WORDS} words`,
		(_where, text) => {
			expect({ words: wordsIn(text), sentences: sentencesIn(text) }).toEqual({
				words: Math.min(wordsIn(text), MAX_WORDS),
				sentences: Math.min(sentencesIn(text), MAX_SENTENCES),
			});
		},
	);

	it('counts words and sentences as a reader does', () => {
		expect(wordsIn('One two, three.')).toBe(3);
		expect(sentencesIn('First one, e.g. this. Second one! Third?')).toBe(3);
		expect(sentencesIn('No stop at the end')).toBe(1);
		expect(
			wordsIn(
				'Pick one. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			),
		).toBe(2);
	});
});

describe('placeholders', () => {
	const all = texts
		.filter((text) => text.kind === 'placeholder')
		.map((text) => [text.fieldType ?? '', text.text] as const);

	it('show an example starting with "e.g." (n8n\'s name@email.com for an e-mail address)', () => {
		const examples = all.filter(([type]) => type !== 'collection' && type !== 'fixedCollection');
		expect(examples.length).toBeGreaterThan(10);
		expect(
			examples.filter(([, text]) => !text.startsWith('e.g. ') && text !== 'name@email.com'),
		).toEqual([]);
	});

	it('label the add buttons of collections the same way ("Add Option", title case)', () => {
		const buttons = all.filter(([type]) => type === 'collection' || type === 'fixedCollection');
		expect(buttons.length).toBeGreaterThan(3);
		expect(buttons.filter(([, text]) => !/^Add( [A-Z][a-z]*)+$/.test(text))).toEqual([]);
	});
});

describe('the AI Metadata Trigger subtitle', () => {
	/** n8n evaluates the subtitle expression with the node's parameters as $parameter. */
	function subtitleFor(view: string): string {
		const expression = new ArchiveAiMetadataTrigger().description.subtitle!;
		expect(expression.startsWith('={{') && expression.endsWith('}}')).toBe(true);
		const body = expression.slice(3, -2);
		// eslint-disable-next-line @typescript-eslint/no-implied-eval -- evaluates the subtitle expression as n8n would
		const evaluate = new Function('$parameter', `return (${body});`) as (
			parameter: unknown,
		) => string;
		return evaluate({ view });
	}

	it('names the view as the list does', () => {
		expect(subtitleFor('speech_tasks')).toBe('New Speech Tasks');
		expect(subtitleFor('refset_persons')).toBe('New Reference-Set Persons');
	});

	it('shows a value set by expression as it is', () => {
		expect(subtitleFor('other_view')).toBe('New other_view');
	});
});
