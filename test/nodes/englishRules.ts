import type { EditorText } from './editorTexts';

/**
 * English as people write it, for every text the editor shows (texts.test.ts for the static ones, the option-list
 * tests for lists loaded from the APIs): the article before a vowel sound, regular plurals, acronyms in capitals,
 * and no raw API value as a label.
 */

/** Code, names and examples inside a text are not prose: `…`, "…", URLs, snake_case and dotted names, JSON. */
function proseOf(text: string): string {
	return (
		text
			.replace(/<[^>]+>/g, ' ')
			.replace(/`[^`]*`/g, ' ')
			.replace(/"[^"]*"/g, ' ')
			.replace(/\{[^}]*\}/g, ' ')
			// A list or expression of API names in parentheses, e.g. "(for tasks task_id, pid, cp)" or "(pid _in [...])".
			.replace(/\([^()]*_[^()]*\)/g, ' ')
			.replace(/https?:\/\/\S+/g, ' ')
			.replace(/\b\w*[_.]\w+\b/g, ' ')
	);
}

const ACRONYMS = [
	'ner',
	'pid',
	'pids',
	'sip',
	'sips',
	'iri',
	'iris',
	'url',
	'urls',
	'json',
	'uuid',
	'uuids',
	'api',
	'srt',
];

/** Words after "a" that start with a vowel letter but a consonant sound, and after "an" the reverse. */
const A_BEFORE_VOWEL_LETTER = /^(uni|use|usa|one|eu)/i;
const AN_BEFORE_CONSONANT_LETTER = /^(hour|honest|NER|SRT|SIP|S3|HTTP|HTML|MP|FTP|LLM|XML|RDF|F\b)/;

export function problemsOf({ text, kind }: Pick<EditorText, 'text' | 'kind'>): string[] {
	const label = kind === 'label';
	const problems: string[] = [];
	const prose = proseOf(text);
	for (const match of prose.matchAll(/\b(a|an|A|An) ([A-Za-z][\w-]*)/g)) {
		const [, article, word] = match;
		const vowelLetter = /^[aeiou]/i.test(word);
		const acronym = word.length > 1 && word === word.toUpperCase();
		const vowelSound = acronym
			? /^[AEFHILMNORSX]/.test(word)
			: vowelLetter && !A_BEFORE_VOWEL_LETTER.test(word);
		const isAn = article.toLowerCase() === 'an';
		if (isAn !== (vowelSound || (!acronym && AN_BEFORE_CONSONANT_LETTER.test(word))))
			problems.push(`"${article} ${word}"`);
	}
	for (const match of prose.matchAll(/\b\w+(ch|sh|x)s\b/g)) problems.push(`plural "${match[0]}"`);
	for (const match of prose.matchAll(/\b[a-z]+\b/g))
		if (ACRONYMS.includes(match[0])) problems.push(`acronym in lower case "${match[0]}"`);
	const label_ = text.replace(/\b(GraphQL|MiB|KiB|WebVTT|IDs|PIDs|URLs|IRIs|UUIDs)\b/g, '');
	if (label && (/_/.test(label_) || /^[a-z]/.test(label_) || /[a-z][A-Z]/.test(label_)))
		problems.push(`raw API value as a label "${text}"`);
	return problems;
}

/**
 * Problems of an option list loaded from an API, one line per option at fault. `labelsAreOurs`: the names are the
 * package's own words for API values (columns, statuses, types), held to the label rules; otherwise they are the
 * records' own data (titles, names), and only their descriptions are checked.
 */
export function listProblems(
	where: string,
	options: Array<{ name: string; description?: string }>,
	labelsAreOurs: boolean,
): string[] {
	const texts = options.flatMap(({ name, description }) => [
		...(labelsAreOurs ? [{ text: name, kind: 'label' as const }] : []),
		...(description ? [{ text: description, kind: 'description' as const }] : []),
	]);
	return texts
		.map((text) => ({ text: text.text, problems: problemsOf(text) }))
		.filter((text) => text.problems.length > 0)
		.map((text) => `${where}: ${text.problems.join(', ')} in ${JSON.stringify(text.text)}`);
}
