import {
	REDACTED,
	redactAndClip,
	redactSecrets,
	withoutUserinfo,
} from '../../../nodes/shared/http/redact';

/** A secret with characters that URL encoding and JSON escaping change. */
const SECRET = 'Zq+9/x="y\\w ü&k';

describe('redactSecrets: a known secret in every form it takes', () => {
	const uri = encodeURIComponent(SECRET);
	const json = JSON.stringify(SECRET).slice(1, -1);
	it.each([
		['as is', SECRET],
		['URL-encoded', uri],
		['URL-encoded with lower-case hex', uri.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())],
		['URL-encoded twice', encodeURIComponent(uri)],
		['form-encoded', new URLSearchParams({ v: SECRET }).toString().slice(2)],
		['JSON-escaped', json],
		['JSON-escaped twice', JSON.stringify(json).slice(1, -1)],
		['JSON-escaped, then URL-encoded', encodeURIComponent(json)],
	])('%s', (_form, shown) => {
		const text = `the server says: secret ${shown} is wrong`;
		expect(redactSecrets(text, [SECRET])).toBe(`the server says: secret ${REDACTED} is wrong`);
	});

	it('several secrets, overlapping and adjacent occurrences become one [redacted] each', () => {
		expect(redactSecrets(`a ${SECRET}${SECRET} b tok-1tok-2 c`, [SECRET, 'tok-1', 'tok-2'])).toBe(
			`a ${REDACTED} b ${REDACTED} c`,
		);
	});

	it('ignores empty and missing secrets', () => {
		expect(redactSecrets('nothing secret', ['', undefined])).toBe('nothing secret');
	});
});

describe('redactSecrets: credentials it does not know, by their shape', () => {
	it.each([
		[
			'Bearer header',
			'Authorization: Bearer abc.def.ghi, next',
			'Authorization: Bearer [redacted], next',
		],
		['Basic header', 'sent Basic dXNlcjpwYXNz;', 'sent Basic [redacted];'],
		[
			'Bearer URL-encoded',
			'authorization=Bearer%20abc.def&x=1',
			'authorization=Bearer%20[redacted]&x=1',
		],
		[
			'jwtauth in a query',
			'/graphql?a=1&jwtauth=abc.def&b=2',
			'/graphql?a=1&jwtauth=[redacted]&b=2',
		],
		[
			'jwtauth in a URL-encoded URL',
			'https%3A%2F%2Fh%2Fp%3Fjwtauth%3Dabc.def%26x%3D1',
			'https%3A%2F%2Fh%2Fp%3Fjwtauth%3D[redacted]%26x%3D1',
		],
		[
			'jwtauth in a URL encoded twice',
			'p%253Fjwtauth%253Dabc.def%2526x%253D1',
			'p%253Fjwtauth%253D[redacted]%2526x%253D1',
		],
		[
			'"accessToken" in JSON',
			'{"accessToken": "abc\\"def", "n": 1}',
			'{"accessToken": "[redacted]", "n": 1}',
		],
		['"access_token" without spaces', '{"access_token":"abc"}', '{"access_token":"[redacted]"}'],
		['"token" with spaces', '{ "token" :  "abc" }', '{ "token" :  "[redacted]" }'],
		['"password" in single quotes', "{'password': 's3cr3t'}", "{'password': '[redacted]'}"],
		['"client_secret"', '"client_secret":"zz"', '"client_secret":"[redacted]"'],
		[
			'"authorization" holding a scheme',
			'{"authorization":"Bearer abc"}',
			'{"authorization":"[redacted]"}',
		],
		['"refreshToken"', '"refreshToken": "r-1"', '"refreshToken": "[redacted]"'],
		['an API key header', 'x-api-key: k123 rest', 'x-api-key: [redacted] rest'],
		[
			'JSON inside a JSON string',
			'{"message":"{\\"accessToken\\":\\"ab\\\\\\"c\\",\\"n\\":1}"}',
			'{"message":"{\\"accessToken\\":\\"[redacted]\\",\\"n\\":1}"}',
		],
		['JSON URL-encoded', '%22token%22%3A%22abc%22%2C', '%22token%22%3A%22[redacted]%22%2C'],
		['a value never closed', '{"password": "abc def', '{"password": "[redacted]'],
	])('%s', (_case, text, expected) => {
		expect(redactSecrets(text)).toBe(expected);
	});

	it('leaves words about tokens and passwords alone', () => {
		const text = 'token expired; the password is wrong; tokens: 3';
		expect(redactSecrets(text)).toBe(text);
	});

	it('a known secret already replaced is not redacted a second time', () => {
		expect(redactSecrets('jwtauth=abc]&x', ['abc'])).toBe('jwtauth=[redacted]]&x');
		expect(redactSecrets('Bearer abc, x', ['abc'])).toBe('Bearer [redacted], x');
	});
});

/** A JWT as servers issue them (HS256, `{"sub":"1234"}`). */
const JWT =
	'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0In0.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';

describe('redactSecrets: a credential after a secret key and white space, and a JWT anywhere', () => {
	it.each([
		['a JWT after "token"', `token ${JWT} is not valid`, 'token [redacted] is not valid'],
		['a JWT after "Token" and a line break', `Token\n  ${JWT}`, 'Token\n  [redacted]'],
		[
			'hex after "access_token" and a tab',
			'access_token\t9f86d081884c7d659a2feaa0c55ad015 rejected',
			'access_token\t[redacted] rejected',
		],
		[
			'base64 after "password"',
			'password Zm9vYmFyYmF6cXV4MTIzNDU2Nzg= is wrong',
			'password [redacted] is wrong',
		],
		['a JWT on its own', `rejected ${JWT}, try again`, 'rejected [redacted], try again'],
		['a JWT in a path', `/verify/${JWT}/x`, '/verify/[redacted]/x'],
		[
			'an unsigned JWT (empty signature)',
			'got eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0. back',
			'got [redacted] back',
		],
	])('%s', (_case, text, expected) => {
		expect(redactSecrets(text)).toBe(expected);
	});

	it.each([
		'the token expired',
		'token verification failed',
		'Token expired at 2024-01-01T00:00:00Z',
		'password abcdefghijklmnopqrstuvwxyz is not allowed',
		'token 1234567890123456789012345 (no letter)',
		'token a1b2c3d4e5f6g7h8i9 (19 characters)',
		'eyJhbGciOi.eyJ is not a JWT, nor eyJhbGciOiJIUzI1NiJ9.e.x',
	])('leaves alone: %s', (text) => {
		expect(redactSecrets(text)).toBe(text);
	});
});

describe('redactSecrets: an XML or HTML element named like a secret key', () => {
	it.each([
		['<password>', '<password>hunter2secret</password>', '<password>[redacted]</password>'],
		[
			'<access_token> among others',
			'<r><user>me</user><access_token>abc.def</access_token></r>',
			'<r><user>me</user><access_token>[redacted]</access_token></r>',
		],
		[
			'<Token> with an attribute',
			'<Token attr="x">t0k3n</Token>',
			'<Token attr="x">[redacted]</Token>',
		],
		[
			'a WS-Security password',
			'<wsse:Password Type="#PasswordText">s3cr3t pass</wsse:Password>',
			'<wsse:Password Type="#PasswordText">[redacted]</wsse:Password>',
		],
		['an element never closed', '<client_secret>abc', '<client_secret>[redacted]'],
	])('%s', (_case, text, expected) => {
		expect(redactSecrets(text)).toBe(expected);
	});

	it.each(['<token/> stays', '<tokens>3</tokens>', '<label>Password</label> <b>token</b> expired'])(
		'leaves alone: %s',
		(text) => {
			expect(redactSecrets(text)).toBe(text);
		},
	);
});

describe('withoutUserinfo', () => {
	it.each([
		['a password with @', 'https://user:p@ss@host/path', 'https://…@host/path'],
		['a password with @ and no path', 'https://user:p@ss@host', 'https://…@host'],
		[
			'a password with @, a query holding @',
			'https://u:p@w@host?mail=a@b',
			'https://…@host?mail=a@b',
		],
		['no scheme', 'user:secretpw@host', '…@host'],
		['no scheme, a path', 'user:secretpw@host/path', '…@host/path'],
		['no scheme, a password with @', 'user:p@ss@host:8080/path', '…@host:8080/path'],
		['one slash after the scheme', 'https:/user:pw@host/', 'https:/…@host/'],
	])('%s', (_case, url, expected) => {
		expect(withoutUserinfo(url)).toBe(expected);
	});

	it.each([
		['userinfo', 'ftp://user:pw@auth.example.org', 'ftp://…@auth.example.org'],
		['leading white space', '  https://u@h/', '  https://…@h/'],
		['no userinfo', 'https://host/path@x?y=a@b#c@d', 'https://host/path@x?y=a@b#c@d'],
		['a path holding @, no scheme', 'host/a@b', 'host/a@b'],
		['no @ at all', 'localhost:8080/x', 'localhost:8080/x'],
	])('keeps what was right before: %s', (_case, url, expected) => {
		expect(withoutUserinfo(url)).toBe(expected);
	});
});

describe('redactAndClip', () => {
	it('redacts before it clips: a secret cut at the limit shows no part of it', () => {
		const text = `${'x'.repeat(490)}${SECRET} more`;
		const shown = redactAndClip(text, [SECRET], 500);
		expect(shown).toBe(`${'x'.repeat(490)}[redacted]…`);
		expect(shown).not.toContain(SECRET.slice(0, 5));
	});

	it('reads a window of a long text, never showing a secret cut off at its end', () => {
		for (const offset of [0, 1, 7, 8, 13]) {
			const text = `${'y'.repeat(offset)}${SECRET.repeat(20_000)}`;
			const shown = redactAndClip(text, [SECRET], 100);
			expect(shown).toBe(`${'y'.repeat(offset)}${REDACTED}`);
		}
	});
});
