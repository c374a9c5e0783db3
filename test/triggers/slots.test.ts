/**
 * How watched values pack into the stored state (core/slots.ts): every value
 * comes back exactly, schedules take their compact form, and the slots a state
 * written before these forms holds (times in milliseconds, the payment status
 * as text) still read the same after an upgrade.
 */
import {
	type Codec,
	type Dictionary,
	packValue,
	unpackValue,
	type WatchedValue,
} from '../../nodes/InspectionBusinessTrigger/memory/packing';

const TIME: Codec = { kind: 'time' };
const PAYMENT: Codec = { kind: 'code', codes: ['paid', 'unpaid', 'partial'] };
const noDictionary: Dictionary = {
	indexOf: () => {
		throw new Error('not used');
	},
	valueAt: () => '',
};
const roundTrip = (codec: Codec, value: WatchedValue) =>
	unpackValue(codec, packValue(codec, value, noDictionary), noDictionary);

const at = (iso: string) => Date.parse(iso);

describe('times', () => {
	const times = [
		at('2030-06-01T09:30:00.000Z'),
		at('2030-06-01T09:30:00.001Z'),
		at('2030-06-01T09:30:15.000Z'),
		at('2084-12-31T23:59:00.000Z'),
		at('2200-01-01T00:00:00.000Z'),
		0,
		5,
		60_000,
		-60_000,
		-5,
		at('1969-07-20T20:17:00.000Z'),
		at('1969-07-20T20:17:40.123Z'),
		at('1972-01-01T00:00:00.500Z'),
		// The latest and earliest times a Date holds: whole minutes, eight base-36 digits of them.
		8.64e15,
		-8.64e15,
		// Long before 1970 on a whole minute: seven digits of minutes after the sign.
		at('-010000-01-01T00:00:00.000Z'),
	];
	it.each(times)('%d comes back exactly', (ms) => {
		expect(roundTrip(TIME, ms)).toBe(ms);
	});

	it('keeps null', () => {
		expect(roundTrip(TIME, null)).toBeNull();
	});

	it('packs a whole-minute schedule in five characters, against eight in milliseconds', () => {
		expect(packValue(TIME, at('2030-06-01T09:30:00.000Z'), noDictionary)).toHaveLength(5);
		expect(packValue(TIME, at('2030-06-01T09:30:00.001Z'), noDictionary)).toHaveLength(8);
	});

	it.each([
		at('2029-01-02T00:00:00.000Z'),
		at('2030-06-01T09:30:15.250Z'),
		at('1972-07-01T00:00:00.000Z'),
	])('reads a time stored in milliseconds by an earlier version (%d)', (ms) => {
		expect(unpackValue(TIME, ms.toString(36), noDictionary)).toBe(ms);
	});
});

describe('codes', () => {
	it.each([['paid'], ['unpaid'], ['partial'], ['Refunded'], ['7'], [''], ['a,b c~%'], [null]])(
		'%p comes back exactly',
		(value) => {
			expect(roundTrip(PAYMENT, value)).toBe(value);
		},
	);

	it('packs a known code in one character', () => {
		expect(packValue(PAYMENT, 'partial', noDictionary)).toBe('2');
	});

	it.each([['paid'], ['unpaid'], ['Partially Paid'], ['12'], ['01'], ['%']])(
		'reads the text an earlier version stored (%p)',
		(text) => {
			// Earlier versions packed the payment status as text: escaped, '%' for empty, '' for null.
			const stored = text === '%' ? '%' : encodeURIComponent(text);
			expect(unpackValue(PAYMENT, stored, noDictionary)).toBe(text === '%' ? '' : text);
		},
	);

	it('reads an empty slot, what an earlier version stored for no payment status, as null', () => {
		expect(unpackValue(PAYMENT, '', noDictionary)).toBeNull();
	});
});

describe('texts', () => {
	const TEXT: Codec = { kind: 'text' };
	const dictionary = (): Dictionary => {
		const values: string[] = [];
		return {
			indexOf: (value) => (values.includes(value) ? values.indexOf(value) : values.push(value) - 1),
			valueAt: (index) => values[index] ?? '',
		};
	};
	it.each([['Keys with anna@example.com'], ['@'], [''], [null]])(
		'%p comes back exactly',
		(value) => {
			const dict = dictionary();
			expect(unpackValue(TEXT, packValue(TEXT, value, dict), dict)).toBe(value);
		},
	);
});
