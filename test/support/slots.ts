/**
 * A queue across jest's worker processes: a folder of tickets, served by rank, then in the order
 * asked; a served ticket is marked and keeps its slot until released, so a lower rank that joins
 * later waits for a free slot instead of running beside all the holders. Used to bound how many
 * files do CPU-heavy work at once when `npm test` runs many side by side: the e2e files
 * (test/e2e/support/setup.ts), n8n boots (test/e2e/support/instance.ts), and the unit and heavy
 * files beside the e2e ones (test/support/beside-e2e.ts).
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

let taken = 0;

/** Whether process `pid` still runs. */
function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** The queue's tickets, oldest first; one whose process died (a crashed worker) is removed. */
function liveTickets(queue: string): string[] {
	return readdirSync(queue)
		.sort()
		.filter((ticket) => {
			if (alive(Number(ticket.split('-')[2]))) return true;
			rmSync(path.join(queue, ticket), { recursive: true, force: true });
			return false;
		});
}

/** A served ticket's mark: a folder inside the ticket's own. */
const SERVED = 'served';

/**
 * Whether `ticket` may start now: the served tickets plus the waiting ones ahead of it leave a
 * slot. Then it is marked served. Two checks in the same few milliseconds can still both pass.
 */
function served(queue: string, ticket: string, slots: number): boolean {
	const tickets = liveTickets(queue);
	// Marking a ticket given back would make it again, and its slot would stay taken for good.
	if (!tickets.includes(ticket))
		throw new Error(`queue ticket ${ticket} was given back before its turn`);
	const isServed = (name: string) => existsSync(path.join(queue, name, SERVED));
	const waiting = tickets.filter((name) => !isServed(name));
	if (tickets.length - waiting.length + waiting.indexOf(ticket) >= slots) return false;
	mkdirSync(path.join(queue, ticket, SERVED), { recursive: true });
	return true;
}

/**
 * Joins the queue now, with `rank` (lower first; 0 by default); `turn` waits until this ticket
 * is served (see `served`) and resolves to the function that gives it back.
 */
export function queueTicket(
	queue: string,
	slots: number,
	rank = 0,
): { turn: () => Promise<() => void>; release: () => void } {
	mkdirSync(queue, { recursive: true });
	const ticket = [
		String(rank).padStart(4, '0'),
		String(Date.now()).padStart(15, '0'),
		process.pid,
		++taken,
	].join('-');
	mkdirSync(path.join(queue, ticket));
	const release = () => rmSync(path.join(queue, ticket), { recursive: true, force: true });
	const turn = async () => {
		try {
			while (!served(queue, ticket, slots))
				await new Promise((resolve) => setTimeout(resolve, 250));
		} catch (error) {
			release();
			throw error;
		}
		return release;
	};
	return { turn, release };
}

/** Waits until this caller holds one of `slots`; resolves to the function that gives it back. */
export async function takeSlot(queue: string, slots: number): Promise<() => void> {
	return await queueTicket(queue, slots).turn();
}

/** Runs `work` holding one of `slots` of `queue`. */
export async function inSlot<T>(queue: string, slots: number, work: () => Promise<T>): Promise<T> {
	const release = await takeSlot(queue, slots);
	try {
		return await work();
	} finally {
		release();
	}
}
