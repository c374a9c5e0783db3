/**
 * What ends a signed-link download before its file is in: n8n's Stop (the
 * execution's cancel signal) and the deadline for the whole download
 * (DOWNLOAD_DEADLINE: a host that sends a byte now and then cannot hold the
 * execution). Both abort one signal, which every request and body read of the
 * download listens to (./download.ts).
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DOWNLOAD_DEADLINE } from '../rules/links';
import { apiBaseOf } from './link-address';

/** What every request of one download shares: where it may go, and the signal that ends it. */
export interface DownloadRun {
	/** The credential's Base URL: the one address of this machine a download may reach. */
	apiBase: URL;
	/** Aborts at n8n's Stop or at the deadline, whichever comes first. */
	signal: AbortSignal;
	/** n8n's Stop alone, to tell the two apart. */
	stop?: AbortSignal;
}

/** The signal and the Base URL of one download, its deadline counted from now. */
export async function startRun(context: IExecuteFunctions): Promise<DownloadRun> {
	const stop = context.getExecutionCancelSignal?.();
	const deadline = AbortSignal.timeout(DOWNLOAD_DEADLINE.ms);
	const signal = stop ? AbortSignal.any([stop, deadline]) : deadline;
	return { apiBase: await apiBaseOf.call(context), signal, stop };
}

/** The error of a download that Stop or the deadline ended. */
export function endedEarly(node: INode, run: DownloadRun): NodeOperationError {
	if (run.stop?.aborted)
		return new NodeOperationError(node, 'The download was stopped', {
			description: 'The execution was stopped while the file was downloading; nothing was output.',
		});
	const { ms } = DOWNLOAD_DEADLINE;
	const within = ms % 60_000 === 0 ? `${ms / 60_000} minutes` : `${ms / 1000} seconds`;
	return new NodeOperationError(node, `The download did not finish within ${within}`, {
		description: `A download may take ${within} in all, its redirects and repeats included; the file host sent too slowly or stopped sending. Nothing was output; try again later.`,
	});
}
