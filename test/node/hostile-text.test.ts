/**
 * Hostile text never freezes n8n: every regular expression in nodes/,
 * credentials/ and sandbox/ is listed below, each with the adversarial input
 * it is timed on (when it runs on user or API text) or the reason it cannot
 * see such text. A check runs in n8n's main thread, so one slow pattern fed
 * by a webhook or a form freezes the whole instance.
 *
 * - The inventory: a new or changed pattern fails the first test until it is
 *   listed here, with an adversarial input or a reason.
 * - The timings: each check runs on a 1 MB adversarial input in under 100 ms
 *   of CPU (after one untimed run, the best of up to five; CPU time, so a busy
 *   machine does not fail it), or in under 10 times a linear pattern that
 *   matches every character of the same megabyte (a quadratic pattern takes
 *   hundreds of times longer). The
 *   inputs are built so that the quadratic pattern each guard replaced takes
 *   seconds, not minutes: the attacked stretch is 40,000 characters and the
 *   rest of the megabyte is padding. With the old patterns put back, one run
 *   took 1.9 s (By URL), 1.3 s (Base URL) and 2.8 s (the sandbox's bearer
 *   header) on the shared 2-core machine, and those three tests failed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import ts from 'typescript';

import { UUID_PATTERN } from '../../nodes/shared/endpoints';
import { signatureMatches } from '../../nodes/InspectionBusinessWebhookTrigger/auth';
import { safeFileName, sanitizeFilename } from '../../nodes/shared/filenames';
import { readRecordLink } from '../../nodes/shared/locators';
import { toWireTimestamp } from '../../nodes/shared/rules/dates';
import { isEmail } from '../../nodes/shared/rules/formats';
import { nonPublicHost } from '../../nodes/shared/rules/links';
import { nonPublicAddress } from '../../nodes/shared/rules/special-addresses';
import { fileNameOf } from '../../nodes/shared/transport/download';
import { errorCode } from '../../nodes/shared/transport/answer';
import { API_ROOT_SUFFIX } from '../../nodes/shared/transport/request';
import { retryAfterMs } from '../../nodes/shared/transport/retry';
import { bearer } from '../../sandbox/server';

const root = join(__dirname, '..', '..');
const MB = 1024 * 1024;
const LIMIT_MS = 100;
/** The stretch a quadratic pattern would chew on: seconds without the guard, not minutes. */
const ATTACK = 40_000;
const UUID = '3f1c2b9e-8d47-4c1a-9e2f-6b5a4d3c2b1a';

/** `text` repeated, then `pad` repeated, to 1 MB. */
const megabyte = (attack: string, pad: string) =>
	(attack + pad.repeat(Math.ceil(MB / pad.length))).slice(0, MB);

/** Why a pattern never sees hostile text. */
const STATIC = 'runs on the package’s own constant text';
const SANDBOX_ROUTE = 'a sandbox control route: anchored, one bounded path, local test traffic';
const SHORT = 'anchored with bounded repeats: constant time whatever the length';

/** A pattern's adversarial input, or why it needs none. */
type Listed = { attack: string } | { safe: string };

/** Every pattern, by file and as written. */
const INVENTORY: Record<string, Record<string, Listed>> = {
	'credentials/InspectionBusinessApi.credentials.ts': {
		'/^[a-z][a-z\\d+.-]*:\\/\\//i': { attack: megabyte('a', '+') },
	},
	'nodes/InspectionBusiness/helpers/binary.ts': {
		'/\\.([^.]+)$/': { attack: megabyte('', '.' + 'a'.repeat(1000) + '\u0000') },
	},
	'nodes/InspectionBusiness/helpers/locatorsByVersion.ts': { '/ ID$/': { safe: STATIC } },
	'nodes/InspectionBusinessTrigger/memory/codecs.ts': {
		'/%u([0-9A-F]{4})/g': { attack: megabyte('', '%u12') },
	},
	'nodes/InspectionBusinessTrigger/memory/records.ts': {
		'/-/g': { safe: 'runs on record ids the API checked as UUIDs' },
	},
	'nodes/InspectionBusinessTrigger/memory/upgrade.ts': {
		'/^\\d+$/': { attack: megabyte('1', 'a') },
		'/^\\[\\d+ more, hash [0-9a-z]+\\]$/': { attack: megabyte('[1 more, hash ', 'a') },
	},
	'nodes/InspectionBusinessWebhookTrigger/InspectionBusinessWebhookTrigger.node.ts': {
		'/[\\s,]+/': { attack: megabyte('a', ' ,') },
	},
	'nodes/InspectionBusinessWebhookTrigger/auth.ts': {
		'/^sha256=/i': { safe: SHORT },
		'/^[0-9a-f]{64}$/i': { safe: SHORT },
		'/^[A-Za-z0-9+/_-]{43}=?$/': { safe: SHORT },
	},
	'nodes/shared/endpoints.ts': { '/\\{(\\w+)\\}/g': { safe: STATIC } },
	'nodes/shared/inspectionFacts.ts': {
		'/^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?$/': {
			attack: megabyte('2030-01-01T10:00:00.', '1'),
		},
	},
	'nodes/shared/filenames.ts': {
		'/[\\u0300-\\u036f]/g': { safe: 'one character class, no repeat' },
		'/ /g': { safe: 'one character, no repeat' },
		'/[^A-Za-z0-9._-]/g': { safe: 'one character class, no repeat' },
		'/^\\.+/': { attack: megabyte('', '.') },
		'/^[\\p{Cc}\\p{Cf}\\p{Cs}\\p{Zl}\\p{Zp}]$/u': { safe: 'runs on one character at a time' },
		'/[/\\\\<>:"|?*]/g': { safe: 'one character class, no repeat' },
		'/^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i': { safe: SHORT },
		'/\\.{2,}/g': { attack: megabyte('', '.'.repeat(999) + 'a') },
	},
	'nodes/shared/rules/links.ts': {
		'/\\.$/': { attack: megabyte('', '.') + 'x' },
	},
	'nodes/shared/locators.ts': {
		'new RegExp(UUID_PATTERN)': { safe: SHORT },
		"new RegExp(`(?<![0-9a-fA-F])${UUID}(?![0-9a-fA-F])`, 'g')": {
			safe: 'timed below through By URL (a megabyte of hex digits)',
		},
		'/^https?:\\/\\/[^/\\s]\\S*$/i': { safe: 'timed below through By URL' },
		'/[?#]/': { safe: 'one character class, no repeat' },
	},
	'nodes/shared/rules/dates.ts': {
		'/^(\\d{4}-\\d{2}-\\d{2})[T ](\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?)(Z|[+-]\\d{2}(?::?\\d{2})?)?$/i':
			{ safe: SHORT },
		'/^[+-]\\d{2}$/': { safe: SHORT },
	},
	'nodes/shared/rules/formats.ts': {
		'/[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]/g': {
			attack: megabyte('', '\uD800'),
		},
		'new RegExp(UUID_PATTERN)': { safe: SHORT },
		'/^[^\\s@,;<>()"]+@[^\\s@,;<>()"]+\\.[A-Za-z]{2,}$/': { safe: 'timed below (Email)' },
		'/^(\\d{4})-(\\d{2})-(\\d{2})$/': { safe: SHORT },
		'/^T(\\d{2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?(Z|[+-]\\d{2}:?\\d{2})?$/i': {
			safe: SHORT,
		},
	},
	'nodes/shared/rules/query.ts': {
		'/^-?\\d+$/': { attack: megabyte('-', '1') + 'x' },
		'/^-/': { safe: SHORT },
	},
	'nodes/shared/transport/download.ts': {
		"/filename\\*\\s*=\\s*(?:UTF-8|utf-8)?''([^;]+)/": {
			safe: 'timed below (Content-Disposition)',
		},
		'/filename\\s*=\\s*"?([^";]+)"?/': { safe: 'timed below (Content-Disposition)' },
	},
	'nodes/shared/transport/error-body.ts': {
		'/(Bearer\\s+)[^\\s"\',;]+/gi': { attack: megabyte('', 'Bearer' + ' '.repeat(1000) + '"') },
	},
	'nodes/shared/transport/status-hints.ts': {
		'/cursor/i': { safe: 'a literal word' },
		'/^<(?:!doctype\\s+html|html[\\s>]|head[\\s>]|body[\\s>]|!--)/i': {
			attack: '<!doctype' + megabyte('', ' ') + 'x',
		},
	},
	'nodes/shared/transport/request.ts': {
		'/^(https:\\/\\/|http:\\/\\/(localhost|127(\\.\\d{1,3}){3}|\\[::1\\])(:\\d+)?(\\/|$))/i': {
			safe: SHORT,
		},
		'/(?:\\/v1|(?<!\\/))\\/*$/i': { safe: 'timed below (Base URL)' },
		'/^http:/i': { safe: SHORT },
	},
	'nodes/shared/transport/answer.ts': {
		'/^E[A-Z_]+$|^UND_ERR/': { attack: megabyte('E', 'A') + '1' },
		'/socket hang up/i': { safe: 'a literal phrase' },
		'/timeout of \\d+ms exceeded/i': { safe: 'timed below (error code)' },
	},
	'nodes/shared/transport/retry.ts': {
		'/^\\s*$/': { attack: megabyte('', ' ') + 'x' },
		'/^\\d+(\\.\\d+)?$/': { safe: 'timed below (Retry-After)' },
	},
	'sandbox/contacts.ts': { '/\\D/g': { safe: 'one character class' }, '/^-/': { safe: SHORT } },
	'sandbox/control-events.ts': {
		'/^events$/': { safe: SANDBOX_ROUTE },
		'/^events\\/([^/]+)$/': { safe: SANDBOX_ROUTE },
	},
	'sandbox/control-people.ts': {
		'/^contacts$/': { safe: SANDBOX_ROUTE },
		'/^contacts\\/([^/]+)$/': { safe: SANDBOX_ROUTE },
		'/^tags$/': { safe: SANDBOX_ROUTE },
		'/^agencies$/': { safe: SANDBOX_ROUTE },
		'/^tags\\/([^/]+)$/': { safe: SANDBOX_ROUTE },
	},
	'sandbox/control.ts': {
		'/^(::ffff:)?127\\./': { safe: SHORT },
		'/^info$/': { safe: SANDBOX_ROUTE },
		'/^reset$/': { safe: SANDBOX_ROUTE },
		'/^clock$/': { safe: SANDBOX_ROUTE },
		'/^clock\\/advance$/': { safe: SANDBOX_ROUTE },
		'/^inspections$/': { safe: SANDBOX_ROUTE },
		'/^inspections\\/([^/]+)\\/([a-z]+)$/': { safe: SANDBOX_ROUTE },
		'/^webhooks$/': { safe: SANDBOX_ROUTE },
		'/^webhooks\\/deliveries$/': { safe: SANDBOX_ROUTE },
		'/^webhooks\\/([^/]+)$/': { safe: SANDBOX_ROUTE },
		'/^requests$/': { safe: SANDBOX_ROUTE },
		'/^faults$/': { safe: SANDBOX_ROUTE },
		'/^faults\\/queue$/': { safe: SANDBOX_ROUTE },
		'/^rate-limit$/': { safe: SANDBOX_ROUTE },
		'/^settings$/': { safe: SANDBOX_ROUTE },
		'/^emails$/': { safe: SANDBOX_ROUTE },
	},
	'sandbox/control-moments.ts': Object.fromEntries(
		[
			'payment',
			'refund',
			'price',
			'reports',
			'reports\\/([^/]+)',
			'agreements',
			'sign',
			'inspectors',
			'inspectors\\/([^/]+)',
			'services',
			'services\\/([^/]+)',
			'contacts',
		].map((tail) => [`/^inspections\\/([^/]+)\\/${tail}$/`, { safe: SANDBOX_ROUTE }]),
	),
	'sandbox/raw-records.ts': { '/^raw-records$/': { safe: SANDBOX_ROUTE } },
	'sandbox/hostile.ts': {
		'/^\\d+$/': { safe: 'a path segment of local test traffic' },
		'/^https?:\\/\\//': { safe: SHORT },
	},
	'sandbox/files.ts': { '/"/g': { safe: 'one character' } },
	'sandbox/inspections.ts': { '/^-/': { safe: SHORT } },
	'sandbox/router.ts': {
		'/[.*+?^$()|[\\]\\\\]/g': { safe: STATIC },
		'/\\{\\w+\\}/g': { safe: STATIC },
		'new RegExp(`^${source}$`)': {
			safe: 'the endpoint table’s paths: anchored, one [^/]+ per path segment',
		},
	},
	'sandbox/seed/extras.ts': { '/ /g': { safe: STATIC } },
	'sandbox/seed/index.ts': { '/, ([^,]*)$/': { safe: STATIC } },
	'sandbox/seed/people.ts': { '/[^A-Za-z]/g': { safe: STATIC } },
	'sandbox/server.ts': { '/^Bearer\\s./i': { safe: 'timed below (sandbox bearer header)' } },
	'sandbox/webhooks.ts': { '/^https?:\\/\\//': { safe: SHORT } },
};

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** Every regular expression literal and `new RegExp(...)` of the three folders, as written. */
function patternsInSources(): Record<string, string[]> {
	const found: Record<string, string[]> = {};
	for (const folder of ['credentials', 'nodes', 'sandbox']) {
		for (const path of sourceFiles(join(root, folder))) {
			const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest);
			const visit = (node: ts.Node): void => {
				const isPattern =
					node.kind === ts.SyntaxKind.RegularExpressionLiteral ||
					(ts.isNewExpression(node) && node.expression.getText(file) === 'RegExp');
				if (isPattern) (found[relative(root, path)] ??= []).push(node.getText(file));
				ts.forEachChild(node, visit);
			};
			visit(file);
		}
	}
	return found;
}

/** Milliseconds of CPU this process spent in `run`: a busy machine delays it, but does not add to it. */
function cpuMs(run: () => unknown): number {
	const before = process.cpuUsage();
	run();
	const spent = process.cpuUsage(before);
	return (spent.user + spent.system) / 1000;
}

/**
 * CPU milliseconds of the fastest of up to five runs, stopping at the first under the limit,
 * after one untimed run: V8 first interprets a pattern and compiles it once it has run. A
 * pattern that backtracks quadratically takes seconds on every run, so neither hides it.
 */
function fastestRun(run: () => unknown): number {
	const warmUp = cpuMs(run);
	// Twenty times the limit: no linear check comes near it, so no need to wait for five more.
	if (warmUp > 20 * LIMIT_MS) return warmUp;
	let best = Infinity;
	for (let attempt = 0; attempt < 5 && best >= LIMIT_MS; attempt++)
		best = Math.min(best, cpuMs(run));
	return best;
}

const literal = (text: string) => {
	const end = text.lastIndexOf('/');
	return new RegExp(text.slice(1, end), text.slice(end + 1));
};

it('lists every pattern of nodes/, credentials/ and sandbox/ with its input or its reason', () => {
	const found = patternsInSources();
	const unlisted = Object.entries(found).flatMap(([file, patterns]) =>
		patterns.filter((p) => INVENTORY[file]?.[p] === undefined).map((p) => `${file}: ${p}`),
	);
	const gone = Object.entries(INVENTORY).flatMap(([file, patterns]) =>
		Object.keys(patterns)
			.filter((p) => !found[file]?.includes(p))
			.map((p) => `${file}: ${p}`),
	);
	// A new pattern: check it runs in linear time, then list it with an attack or a reason.
	expect({ unlisted, gone }).toEqual({ unlisted: [], gone: [] });
});

const attacks = Object.entries(INVENTORY).flatMap(([file, patterns]) =>
	Object.entries(patterns).flatMap(([pattern, listed]) =>
		'attack' in listed ? [[`${file}: ${pattern}`, pattern, listed.attack] as const] : [],
	),
);

/**
 * The yardstick of the machine's load: a plainly linear pattern that matches
 * every character of `text`, the most work per character a linear pattern does.
 */
const EVERY_CHARACTER = /[\s\S]/g;

/** LIMIT_MS, or 10 times the yardstick on `text` when the machine is too busy for that. */
const limitFor = (text: string) =>
	Math.max(LIMIT_MS, 10 * fastestRun(() => text.replace(EVERY_CHARACTER, '')));

it.each(attacks)('%s runs in linear time on its 1 MB attack', (_name, pattern, attack) => {
	expect(attack.length).toBeGreaterThanOrEqual(MB);
	const regex = literal(pattern);
	const limit = limitFor(attack);
	expect(fastestRun(() => attack.replace(regex, ''))).toBeLessThan(limit);
});

/** The checks that read user or API text, through the functions that run them. */
const CHECKS: Array<[string, string, (text: string) => unknown]> = [
	[
		// Without the guard (`[^/\s]+\S*`) this input took seconds: every split of the host is tried.
		'By URL: a link with whitespace after a long host',
		megabyte('https://' + 'a'.repeat(ATTACK) + ' ', 'b'),
		(text) => readRecordLink('contact', text),
	],
	[
		'By URL: a long path of near-miss record links',
		megabyte('https://h/', `contacts/${UUID}x/`),
		(text) => readRecordLink('inspection', text),
	],
	[
		'By URL: a megabyte of hex digits',
		megabyte('https://h/?q=', '0'),
		(text) => readRecordLink('contact', text),
	],
	[
		// Without the guard (`(\/v1)?\/*$`) every slash of the run was a new start: seconds.
		'Base URL: a long run of slashes before the end',
		megabyte('/'.repeat(ATTACK), 'x'),
		(text) => text.replace(API_ROOT_SUFFIX, ''),
	],
	['Email: dotted labels', megabyte('a@', 'a.') + '!', isEmail],
	['Email: no @', megabyte('', 'a'), isEmail],
	['Date and time', megabyte('2026-01-01T', '1'), (text) => toWireTimestamp(text, 'UTC')],
	[
		'Content-Disposition: spaces after filename*',
		megabyte('filename*', ' '),
		(text) => fileNameOf(text, new URL('https://h/x')),
	],
	[
		'Content-Disposition: quotes',
		megabyte('filename="', 'a'),
		(text) => fileNameOf(text, new URL('https://h/x')),
	],
	['Retry-After', megabyte('', '1') + '.', retryAfterMs],
	[
		'Webhook signature',
		megabyte('sha256=', 'a'),
		(text) => signatureMatches(text, Buffer.from('{}'), 's'),
	],
	[
		'Error code from a message',
		megabyte('timeout of ', '1'),
		(text) => errorCode({ message: text }),
	],
	['File name', megabyte('..', '/.\u0000'), sanitizeFilename],
	['Downloaded file name', megabyte('', '. ./\u0000\u202e. '), safeFileName],
	['Redirect host', megabyte('127.', '0.') + 'x', nonPublicHost],
	['Resolved address', megabyte('', '1:') + '::', nonPublicAddress],
	[
		// Without the guard (`\s+(.+)$`) every split of the spaces was tried: seconds.
		'Sandbox bearer header',
		megabyte('Bearer' + ' '.repeat(ATTACK), '\n'),
		(text) => bearer({ headers: { authorization: text } } as never),
	],
];

it.each(CHECKS)('%s: 1 MB in linear time', (_name, attack, check) => {
	expect(attack.length).toBeGreaterThanOrEqual(MB);
	const limit = limitFor(attack);
	expect(fastestRun(() => check(attack))).toBeLessThan(limit);
});

describe('the linear forms read what the patterns they replaced read', () => {
	/** The patterns before the guards, kept here only as the reference for short text. */
	const OLD_ROOT_SUFFIX = /(\/v1)?\/*$/i;
	const OLD_LINK = /^https?:\/\/[^/\s]+\S*$/i;
	const oldIdAfter = (segments: string, link: string) =>
		new RegExp(
			`^https?://[^/\\s]+(?:/[^\\s?#]*)?/(?:${segments})/(${UUID_PATTERN.slice(1, -1)})(?:[/?#]\\S*)?$`,
			'i',
		).exec(link)?.[1];
	const short = (alphabet: string[]) =>
		fc.array(fc.constantFrom(...alphabet), { maxLength: 14 }).map((chars) => chars.join(''));

	it('the Base URL root suffix', () => {
		fc.assert(
			fc.property(short(['/', 'v', 'V', '1', 'x', '.']), (path) => {
				expect(path.replace(API_ROOT_SUFFIX, '')).toBe(path.replace(OLD_ROOT_SUFFIX, ''));
			}),
			{ numRuns: 3000 },
		);
	});

	it('By URL', () => {
		const pieces = [
			'/',
			'contacts',
			'Contacts',
			'reports',
			UUID,
			UUID.toUpperCase(),
			'x',
			'?',
			'#',
			' ',
			'h',
		];
		fc.assert(
			fc.property(
				fc.constantFrom('https://', 'http://', 'ftp://'),
				short(pieces),
				(scheme, rest) => {
					const link = (scheme + rest).trim();
					const read = readRecordLink('contact', link);
					if (!OLD_LINK.test(link))
						return expect(read).toEqual({ problem: 'is not an http(s) link' });
					const own = oldIdAfter('contacts', link);
					const other = oldIdAfter('inspections|reports', link);
					if (own) expect(read).toEqual({ id: own });
					else if (other) expect(read).toEqual({ problem: expect.stringContaining('Inspection') });
					else expect(read).not.toEqual({ problem: expect.stringContaining('another kind') });
				},
			),
			{ numRuns: 3000 },
		);
	});
});
