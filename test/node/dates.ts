/**
 * Dates are normalised, not refused: what n8n's date picker and expressions
 * produce (Luxon DateTime, JS Date, ISO text with a space) reaches the API as
 * ISO 8601 in UTC, a time without an offset read in the workflow's timezone; a
 * bare date is sent as it is. Contact stats refuse `from` later than `to`
 * before sending.
 */
import type { INodeParameters } from 'n8n-workflow';

import { withSandbox } from '../helpers/n8n';
import { errorText, requests, run } from './support';

export function dates(): void {
	const sandbox = withSandbox();

	/** Contact Get Many with one Updated Since value; the query the sandbox received. */
	async function sentSince(updatedSince: unknown, timezone: string, typeVersion?: number) {
		const result = await run(
			sandbox,
			{
				resource: 'contact',
				operation: 'getAll',
				limit: 1,
				filters: { updated_since: updatedSince },
			} as INodeParameters,
			{ timezone, typeVersion },
		);
		expect(result.error).toBeUndefined();
		const log = await requests(sandbox);
		expect(log).toHaveLength(1);
		expect(log[0].status).toBe(200);
		return log[0].query.updated_since;
	}

	describe('Updated Since', () => {
		test.each([
			[
				'ISO with a space, in the workflow timezone',
				'2024-05-01 10:00',
				'America/Denver',
				'2024-05-01T16:00:00Z',
			],
			[
				'the date picker (no offset), in the workflow timezone',
				'2024-05-01T10:00:00',
				'Europe/Berlin',
				'2024-05-01T08:00:00Z',
			],
			[
				'an offset wins over the workflow timezone',
				'2024-05-01T10:00:00+02:00',
				'America/Denver',
				'2024-05-01T08:00:00Z',
			],
			['an hour-only offset', '2024-05-01 10:00+05', 'UTC', '2024-05-01T05:00:00Z'],
			[
				'a fraction of a second is kept',
				'2024-05-01T10:00:00.250Z',
				'Europe/Berlin',
				'2024-05-01T10:00:00.250Z',
			],
			['a bare date is sent as it is', '2024-05-01', 'Pacific/Auckland', '2024-05-01'],
			[
				'a Luxon DateTime from an expression',
				"={{ DateTime.fromISO('2024-05-01T10:00:00', { zone: 'Europe/Berlin' }) }}",
				'America/Denver',
				'2024-05-01T08:00:00Z',
			],
			[
				'a JS Date from an expression',
				'={{ new Date(Date.UTC(2024, 4, 1, 8)) }}',
				'America/Denver',
				'2024-05-01T08:00:00Z',
			],
			[
				'$now',
				'={{ $now.startOf("day") }}',
				'Asia/Tokyo',
				expect.stringMatching(/^\d{4}-\d{2}-\d{2}T15:00:00Z$/),
			],
		])('%s', async (_name, value, timezone, wire) => {
			expect(await sentSince(value, timezone)).toEqual(wire);
		});

		test('text that is no date is refused naming the field, with no request', async () => {
			const result = await run(sandbox, {
				resource: 'contact',
				operation: 'getAll',
				limit: 1,
				filters: { updated_since: '2024-05-01 at ten' },
			});
			expect(errorText(result)).toContain('Updated Since "updated_since"');
			expect(await requests(sandbox)).toHaveLength(0);
		});
	});

	describe('contact stats From and To', () => {
		const stats = (filters: INodeParameters, timezone = 'UTC') =>
			run(
				sandbox,
				{ resource: 'contactStats', operation: 'getAll', limit: 1, filters },
				{ timezone },
			);

		test('From later than To is an item-level error naming From, with no request', async () => {
			const result = await stats({ from: '2024-06-01', to: '2024-05-01' });
			expect(result.error?.message).toBe(
				'Invalid value for From "from": must not be later than "to"',
			);
			expect(result.error?.description).toBe('Nothing was sent to the API.');
			expect(await requests(sandbox)).toHaveLength(0);
		});

		test('picked From and To are read in the workflow timezone and sent in UTC', async () => {
			const result = await stats(
				{ from: '2024-05-01 00:00', to: '2024-06-01T00:00:00' },
				'America/New_York',
			);
			expect(result.error).toBeUndefined();
			const [entry] = await requests(sandbox);
			expect(entry.query).toMatchObject({
				from: '2024-05-01T04:00:00Z',
				to: '2024-06-01T04:00:00Z',
			});
		});
	});

	describe('version 1 workflows read a time without an offset as UTC, as before', () => {
		// Version 1 sent such a value as it was given, and the API reads it as UTC. In the
		// workflow's timezone, a saved Updated Since west of UTC would move hours later and
		// a sync would skip the changes in between.
		test.each([
			['the date picker (no offset)', '2024-05-01T10:00:00', '2024-05-01T10:00:00Z'],
			['ISO with a space', '2024-05-01 10:00', '2024-05-01T10:00:00Z'],
			['an offset', '2024-05-01T10:00:00+02:00', '2024-05-01T08:00:00Z'],
			['a bare date', '2024-05-01', '2024-05-01'],
			[
				'a Luxon DateTime (refused by version 1 before, an instant now)',
				"={{ DateTime.fromISO('2024-05-01T10:00:00', { zone: 'Europe/Berlin' }) }}",
				'2024-05-01T08:00:00Z',
			],
		])('%s, in a workflow set to America/Denver', async (_name, value, wire) => {
			expect(await sentSince(value, 'America/Denver', 1)).toEqual(wire);
		});

		test('the same picked value in version 2 is read in the workflow timezone', async () => {
			expect(await sentSince('2024-05-01T10:00:00', 'America/Denver', 2)).toBe(
				'2024-05-01T16:00:00Z',
			);
		});

		test('Contact Statistic From and To in version 1 are UTC too', async () => {
			const result = await run(
				sandbox,
				{
					resource: 'contactStats',
					operation: 'getAll',
					limit: 1,
					filters: { from: '2024-05-01 00:00', to: '2024-06-01T00:00:00' },
				},
				{ timezone: 'America/New_York', typeVersion: 1 },
			);
			expect(result.error).toBeUndefined();
			const [entry] = await requests(sandbox);
			expect(entry.query).toMatchObject({
				from: '2024-05-01T00:00:00Z',
				to: '2024-06-01T00:00:00Z',
			});
		});
	});
}
