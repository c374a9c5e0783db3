/**
 * The name a download hands on (safeFileName): whatever Content-Disposition,
 * the link or the record says, a name every common file system can write. The
 * sandbox's hostile `/_hostile/file-name?name=…` serves a file under any name,
 * so the hostile names are also read through a real download.
 */
import fc from 'fast-check';

import { isUnsafeCharacter, MAX_NAME_BYTES, safeFileName } from '../../nodes/shared/filenames';
import { downloadSignedLink, fileNameOf } from '../../nodes/shared/transport/download';
import { withSandbox } from '../helpers/n8n';
import { inNode } from './context';

export function fileNames(): void {
	const sandbox = withSandbox();
	const bytes = (text: string) => Buffer.byteLength(text);
	const CJK = '報告書'.repeat(40);
	const EMOJI = '📄'.repeat(70);

	describe('from Content-Disposition and the link', () => {
		const url = new URL('https://files.example.com/f/x');

		test.each([
			['attachment; filename="../../etc/passwd"', '_._etc_passwd'],
			['attachment; filename="..\\..\\boot.ini"', '_._boot.ini'],
			["attachment; filename*=UTF-8''%2E%2E%2F%2E%2E%2Fcron%0A.d", '_._cron.d'],
			['attachment; filename="report\u202Efdp.exe"', 'reportfdp.exe'],
			['attachment; filename=".."', undefined],
			['attachment; filename="  .hidden. "', 'hidden'],
			['attachment; filename="Résumé 2026.pdf"', 'Résumé 2026.pdf'],
			["attachment; filename*= UTF-8''R%C3%A9sum%C3%A9.pdf", 'Résumé.pdf'],
			["attachment; filename* = UTF-8''R%C3%A9sum%C3%A9.pdf", 'Résumé.pdf'],
			["attachment; filename*=''final%20report.pdf", 'final report.pdf'],
			['attachment; filename = "final report.pdf"', 'final report.pdf'],
			['attachment; filename=report.pdf', 'report.pdf'],
		])('%s gives %s', (header, expected) => {
			expect(fileNameOf(header, url)).toBe(expected);
		});

		it('the name from the link is its last segment that is not empty', () => {
			expect(fileNameOf(undefined, new URL('https://h/reports/2026-11/'))).toBe('2026-11');
		});

		it('the name from the link itself is made safe too', () => {
			expect(fileNameOf(undefined, new URL('https://h/f/%2E%2E%2F%00secret.pdf'))).toBe(
				'_secret.pdf',
			);
		});
	});

	/** Hostile names, each with the name kept: one table for safeFileName and the real download. */
	const HOSTILE_NAMES: Array<[string, string, string | undefined]> = [
		['a Windows device name', 'CON', '_CON'],
		['a device name with an extension', 'con.txt', '_con.txt'],
		['a device name with two extensions', 'LPT1.tar.gz', '_LPT1.tar.gz'],
		['a device name with a trailing space', 'nul .pdf', '_nul .pdf'],
		['a numbered port with a superscript', 'COM¹.txt', '_COM¹.txt'],
		['not a device name', 'console.txt', 'console.txt'],
		['characters Windows refuses', 'a<b>c|d?*:e.txt', 'a_b_c_d___e.txt'],
		['quotes', 'say "hi".txt', 'say _hi_.txt'],
		['an NTFS stream', 'report.pdf:zone.identifier', 'report.pdf_zone.identifier'],
		['a zero-width space', 'in\u200Bvoice.pdf', 'invoice.pdf'],
		['a line separator', 'in\u2028voice.pdf', 'invoice.pdf'],
		['a paragraph separator', 'in\u2029voice.pdf', 'invoice.pdf'],
		['a byte-order mark and a soft hyphen', '\uFEFFin\u00ADvoice.pdf', 'invoice.pdf'],
		['an isolate and a direction mark', 'a\u2066b\u200Fc.pdf', 'abc.pdf'],
		['only invisible characters', '\u200B\u2028\uFEFF', undefined],
		['120 CJK characters', `${CJK}.pdf`, `${'報告書'.repeat(27)}報告.pdf`],
		[
			'emoji past the cut',
			`${'x'.repeat(120)}${EMOJI}.pdf`,
			`${'x'.repeat(120)}${'📄'.repeat(32)}.pdf`,
		],
	];

	describe('hostile names', () => {
		test.each(HOSTILE_NAMES)('%s: %j is kept as %j', (_what, name, kept) => {
			expect(safeFileName(name)).toBe(kept);
		});

		test.each(HOSTILE_NAMES.filter(([, , kept]) => kept !== undefined))(
			'%s: a real download of a file named %j hands on %j',
			async (_what, name, kept) => {
				const link = `${sandbox.baseUrl}/_hostile/file-name?name=${encodeURIComponent(name)}`;
				const file = await inNode(sandbox.credentials(), async function () {
					return await downloadSignedLink.call(this, link);
				});
				expect(file.fileName).toBe(kept);
			},
		);

		it('a long name is cut to 255 UTF-8 bytes, keeping its extension', () => {
			expect(safeFileName(`${'a'.repeat(300)}.pdf`)).toBe(`${'a'.repeat(251)}.pdf`);
			expect(bytes(safeFileName(`${CJK}.pdf`) ?? '')).toBeLessThanOrEqual(MAX_NAME_BYTES);
		});
	});

	describe('every name', () => {
		const UNITS = [
			'.',
			'/',
			'\\',
			' ',
			'a',
			'é',
			'報',
			'📄',
			'\uD83D',
			'\uDCC4',
			'\u0000',
			'\n',
			'\u202e',
			'\u200B',
			'\u2028',
			':',
			'<',
			'|',
			'?',
			'*',
			'"',
			'C',
			'O',
			'N',
			'L',
			'P',
			'T',
			'1',
		];

		it('has no separator, refused or invisible character, no dot run, no device name, at most 255 bytes', () => {
			fc.assert(
				fc.property(fc.string({ unit: fc.constantFrom(...UNITS), maxLength: 400 }), (name) => {
					const safe = safeFileName(name);
					if (safe === undefined) return;
					expect(safe).not.toMatch(/[/\\<>:"|?*]|\.\./);
					expect([...safe].filter(isUnsafeCharacter)).toEqual([]);
					expect(bytes(safe)).toBeLessThanOrEqual(MAX_NAME_BYTES);
					expect(safe).not.toMatch(/^[. ]|[. ]$/);
					expect(safe).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d) *(\.|$)/i);
					// Whole characters only: the name survives a round trip through UTF-8.
					expect(Buffer.from(safe, 'utf8').toString('utf8')).toBe(safe);
				}),
				{ numRuns: 2000 },
			);
		});
	});
}
