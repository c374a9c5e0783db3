/**
 * A queue across jest's worker processes: a folder of tickets, served by rank, then in the order
 * asked; a holder is one of the `slots` first tickets. Used to bound how many files do CPU-heavy work
 * at once when `npm test` runs many side by side: n8n boots (test/e2e/support/instance.ts),
 * and the unit and heavy files beside the e2e ones (test/support/beside-e2e.ts).
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
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

/**
 * Joins the queue now, with `rank` (lower first; 0 by default); `turn` waits until this ticket
 * is one of the first `slots` and resolves to the function that gives it back.
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
			while (!liveTickets(queue).slice(0, slots).includes(ticket))
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
