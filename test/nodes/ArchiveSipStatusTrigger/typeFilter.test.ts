import {
	globMatches,
	splitPatterns,
	typeMatches,
} from '../../../nodes/ArchiveSipStatusTrigger/typeFilter';

describe('type filter', () => {
	it('matches glob-like patterns', () => {
		const patterns = splitPatterns('*.sip.*');
		expect(typeMatches('meemoo.sip.archived', patterns)).toBe(true);
		expect(typeMatches('service.sip.archived', patterns)).toBe(true);
		expect(typeMatches('sip.archived', patterns)).toBe(false);
		expect(typeMatches('service.sipx.archived', patterns)).toBe(false);
	});

	it('treats regular-expression characters literally', () => {
		expect(typeMatches('a+b', splitPatterns('a+b'))).toBe(true);
		expect(typeMatches('aab', splitPatterns('a+b'))).toBe(false);
	});
});

describe('globMatches (no regular expression)', () => {
	it.each([
		['*', '', true],
		['*', 'anything', true],
		['a*', 'a', true],
		['*a', 'ba', true],
		['*a', 'ab', false],
		['a*a', 'a', false],
		['a*a', 'aa', true],
		['*.sip.*', 'x.sip.y', true],
		['*.sip.*', '.sip.', true],
		['*.sip.*', 'x.sip', false],
		['a**b', 'ab', true],
		['*ab*ab*', 'abab', true],
		['*ab*ab*', 'aba', false],
		['*aab', 'aaab', true],
		['x*y*z', 'xzyz', true],
		['x*y*z', 'xzzy', false],
		['*a*a*a*a*b', `${'a'.repeat(199)}b`, true],
		['*a*a*a*a*b', 'a'.repeat(200), false],
		['exact', 'exact', true],
		['exact', 'exactly', false],
	])('%p against %p is %p', (pattern, text, expected) => {
		expect(globMatches(pattern, text)).toBe(expected);
	});

	it('agrees with a brute-force matcher on every short pattern and text over {a, b}', () => {
		const words = (length: number, alphabet: string[]): string[] =>
			length === 0
				? ['']
				: words(length - 1, alphabet).flatMap((word) => alphabet.map((letter) => word + letter));
		const bruteForce = (pattern: string, text: string): boolean => {
			if (pattern === '') return text === '';
			if (pattern[0] === '*')
				return [...Array(text.length + 1).keys()].some((skip) =>
					bruteForce(pattern.slice(1), text.slice(skip)),
				);
			return text[0] === pattern[0] && bruteForce(pattern.slice(1), text.slice(1));
		};
		const patterns = [0, 1, 2, 3, 4].flatMap((length) => words(length, ['a', 'b', '*']));
		const texts = [0, 1, 2, 3, 4, 5].flatMap((length) => words(length, ['a', 'b']));
		for (const pattern of patterns) {
			for (const text of texts)
				expect([pattern, text, globMatches(pattern, text)]).toEqual([
					pattern,
					text,
					bruteForce(pattern, text),
				]);
		}
	});
});
