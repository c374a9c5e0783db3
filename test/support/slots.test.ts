/**
 * The queue that bounds how many files work at once (slots.ts): served by rank, then in the order
 * asked; a served ticket holds its slot until released; a dead process's ticket frees its slot.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { queueTicket, takeSlot } from './slots';

let queue: string;
beforeEach(() => {
	queue = path.join(mkdtempSync(path.join(tmpdir(), 'ib-slots-')), 'queue');
});
afterEach(() => rmSync(path.dirname(queue), { recursive: true, force: true }));

/** Whether `turn` resolves within `ms`. */
const servedWithin = async (turn: Promise<unknown>, ms: number) =>
	await Promise.race([
		turn.then(() => true),
		new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
	]);

test('a lower rank is served first, though it joined later; equal ranks in the order asked', async () => {
	const late = queueTicket(queue, 1, 5);
	const early = queueTicket(queue, 1, 1);
	const alsoEarly = queueTicket(queue, 1, 1);
	const lateTurn = late.turn();
	const alsoTurn = alsoEarly.turn();
	expect(await servedWithin(early.turn(), 1000)).toBe(true);
	expect(await servedWithin(lateTurn, 600)).toBe(false);
	expect(await servedWithin(alsoTurn, 100)).toBe(false);
	early.release();
	expect(await servedWithin(alsoTurn, 1000)).toBe(true);
	expect(await servedWithin(lateTurn, 600)).toBe(false);
	alsoEarly.release();
	expect(await servedWithin(lateTurn, 1000)).toBe(true);
	late.release();
	expect(readdirSync(queue)).toEqual([]);
});

test('a served ticket keeps its slot when a lower rank joins later', async () => {
	const first = queueTicket(queue, 1, 5);
	await first.turn();
	const lower = queueTicket(queue, 1, 1);
	const lowerTurn = lower.turn();
	expect(await servedWithin(lowerTurn, 600)).toBe(false);
	first.release();
	expect(await servedWithin(lowerTurn, 1000)).toBe(true);
	lower.release();
});

test('a ticket given back before its turn fails its turn and takes no slot', async () => {
	const given = queueTicket(queue, 1);
	given.release();
	await expect(given.turn()).rejects.toThrow();
	expect(readdirSync(queue)).toEqual([]);
	expect(await servedWithin(takeSlot(queue, 1), 1000)).toBe(true);
});

test('holds at most `slots` at once', async () => {
	const releases = await Promise.all([takeSlot(queue, 2), takeSlot(queue, 2)]);
	const third = takeSlot(queue, 2);
	expect(await servedWithin(third, 600)).toBe(false);
	releases[0]();
	expect(await servedWithin(third, 1000)).toBe(true);
});

test("a ticket whose process has died frees its slot (a crashed worker's)", async () => {
	mkdirSync(queue, { recursive: true });
	// Rank 0 at time 0: first in line, held by a process id that no process has.
	mkdirSync(path.join(queue, `0000-${'0'.padStart(15, '0')}-999999999-1`));
	expect(await servedWithin(takeSlot(queue, 1), 1000)).toBe(true);
});
