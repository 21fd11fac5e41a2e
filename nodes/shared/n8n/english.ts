/**
 * Names of records as a sentence writes them: "an image task", "face matches", "an NER task". Acronyms keep their
 * capitals and take the article of how they are spoken (an NER task, a PID).
 */

/** Letters whose spoken name starts with a vowel sound: "an F", "an NER task", "an SRT file". */
const VOWEL_SOUND_LETTERS = new Set('AEFHILMNORSX');

const isAcronym = (word: string) => word.length > 1 && word === word.toUpperCase();

/** A display name ("Face Match", "NER Task") as a noun inside a sentence ("face match", "NER task"). */
export function nounOf(displayName: string): string {
	return displayName
		.split(' ')
		.map((word) => (isAcronym(word) ? word : word.toLowerCase()))
		.join(' ');
}

/** "face matches", "image tasks", "reference-set persons". */
export function pluralOf(noun: string): string {
	return /(s|x|z|ch|sh)$/.test(noun) ? `${noun}es` : `${noun}s`;
}

/** "a face task", "an image task", "an NER task". */
export function withArticle(noun: string): string {
	const first = noun.split(/[\s-]/)[0];
	const vowelSound = isAcronym(first)
		? VOWEL_SOUND_LETTERS.has(first[0])
		: /^[aeiou]/i.test(first) && !/^(uni|use|one)/i.test(first);
	return `${vowelSound ? 'an' : 'a'} ${noun}`;
}

/** Parts of API names that people write in capitals, and the small words a label keeps in lower case. */
const ACRONYMS = new Set('api id iri json ner pid s3 srt txt url uuid vtt'.split(' '));
const SMALL_WORDS = new Set(['and', 'by', 'in', 'of', 'or', 'per']);
/** Abbreviations of the archive's APIs, spelled out. */
const SPELLED_OUT: Record<string, string> = { cp: 'Content Partner', refset: 'Reference-Set' };

function wordLabel(word: string, index: number): string {
	const lower = word.toLowerCase();
	if (SPELLED_OUT[lower]) return SPELLED_OUT[lower];
	// `or` first is the archive's organization id (OR-…), elsewhere the small word.
	if (ACRONYMS.has(lower) || (index === 0 && lower === 'or')) return lower.toUpperCase();
	if (lower.endsWith('s') && ACRONYMS.has(lower.slice(0, -1)))
		return `${lower.slice(0, -1).toUpperCase()}s`;
	if (index > 0 && SMALL_WORDS.has(lower)) return lower;
	return lower.charAt(0).toUpperCase() + lower.slice(1);
}

/** An API name as a label: `processed_time` → "Processed Time", `n_faces` → "Number of Faces", `cluster_uuids` → "Cluster UUIDs". */
export function labelOf(apiName: string): string {
	const words = apiName.split(/_+/).filter((word) => word !== '');
	const counted = words[0] === 'n' && words.length > 1;
	const label = (counted ? words.slice(1) : words).map(wordLabel).join(' ');
	return counted ? `Number of ${label}` : label;
}

/** What a GraphQL type holds, in words (Hasura names Postgres types, GraphQL its own). */
const VALUE_KINDS: Record<string, string> = {
	ID: 'an identifier',
	uuid: 'a UUID',
	timestamptz: 'a date and time',
	timestamp: 'a date and time',
	date: 'a date',
	Int: 'a whole number',
	bigint: 'a whole number',
	smallint: 'a whole number',
	Float: 'a number',
	float8: 'a number',
	numeric: 'a number',
	String: 'text',
	Boolean: 'true or false',
	jsonb: 'JSON',
	json: 'JSON',
};

/** "a UUID", "text", "a list": what a column or field of this type holds, or undefined for types not listed. */
export function valueKindOf(type: string | undefined): string | undefined {
	if (type === undefined) return undefined;
	if (type.startsWith('[') || type.startsWith('_')) return 'a list';
	return VALUE_KINDS[type.replace(/!$/, '')];
}
