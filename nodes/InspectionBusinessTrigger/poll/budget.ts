/**
 * Pages may be fetched while the poll has time left. The budget is shared out
 * so that every watched resource gets its turn: the i-th resource of n may run
 * until (i + 1)/n of the budget, plus whatever the earlier ones left. A page is
 * only started when twice the slowest page so far still fits; the poll's first
 * page always is, so every poll makes progress.
 */
export class Budget {
	private readonly start: number;
	private slowest = 0;
	/** Requests made so far in this poll. */
	requests = 0;

	constructor(private readonly options: { now: () => number; budgetMs: number }) {
		this.start = options.now();
	}

	/** `budgetShare`: the fraction of the poll's budget this walk may run until. */
	allows(budgetShare: number): boolean {
		if (this.requests === 0) return true;
		const elapsed = this.options.now() - this.start;
		return elapsed + 2 * this.slowest <= this.options.budgetMs * budgetShare;
	}

	async timed<T>(fetch: () => Promise<T>): Promise<T> {
		const started = this.options.now();
		this.requests++;
		const result = await fetch();
		this.slowest = Math.max(this.slowest, this.options.now() - started);
		return result;
	}
}
