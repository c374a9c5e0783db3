/**
 * `peakGrowth(run)`: how far the process's memory for data (its JS heap and
 * its buffers) rose above where it stood when `run` began, sampled every
 * 5 ms while it ran. Coarse (garbage counts until it is collected), so tests
 * compare it with sizes far apart: an answer cap of a megabyte against a
 * hostile answer of tens of megabytes.
 */
const inUse = () => {
	const { heapUsed, arrayBuffers } = process.memoryUsage();
	return heapUsed + arrayBuffers;
};

export async function peakGrowth<T>(run: () => Promise<T>): Promise<{ value: T; growth: number }> {
	const start = inUse();
	let peak = start;
	const sampler = setInterval(() => (peak = Math.max(peak, inUse())), 5);
	try {
		const value = await run();
		peak = Math.max(peak, inUse());
		return { value, growth: peak - start };
	} finally {
		clearInterval(sampler);
	}
}
