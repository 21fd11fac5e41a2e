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
