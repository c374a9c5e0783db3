/**
 * A video of a browser test, for the listing's review (install, a passing credential test, a
 * trigger firing): chromium's screencast (CDP `Page.startScreencast`) sends a JPEG whenever the
 * page changes, and Debian's ffmpeg (installed with apt-get when missing, as chromium is) joins
 * them at the times they came, each shown at most MAX_STILL_S, so waits for a poll stay short.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { aptGet } from '../../../scripts/chromium';
import { run } from '../../../scripts/processes';

const FFMPEG = '/usr/bin/ffmpeg';
const MINUTE = 60_000;
/** The longest a frame stays on screen in the video: a wait of minutes becomes a pause. */
const MAX_STILL_S = 1.5;

export async function ensureFfmpeg(log: (line: string) => void = () => {}): Promise<string> {
	if (existsSync(FFMPEG)) return FFMPEG;
	if (process.getuid?.() !== 0)
		throw new Error(`${FFMPEG} is missing; install it with: apt-get install -y ffmpeg`);
	log('Installing ffmpeg with apt-get');
	await aptGet(['update', '-q'], { log, timeoutMs: 10 * MINUTE });
	await aptGet(['install', '-y', '-q', '--no-install-recommends', 'ffmpeg'], {
		log,
		timeoutMs: 20 * MINUTE,
	});
	return FFMPEG;
}

export class ScreenRecording {
	private readonly frames: Array<{ file: string; at: number }> = [];

	private constructor(
		private readonly session: CDPSession,
		private readonly dir: string,
	) {}

	static async start(page: Page): Promise<ScreenRecording> {
		const session = await page.context().newCDPSession(page);
		const recording = new ScreenRecording(
			session,
			mkdtempSync(path.join(tmpdir(), 'ib-recording-')),
		);
		session.on('Page.screencastFrame', (frame) => {
			const file = path.join(
				recording.dir,
				`${String(recording.frames.length).padStart(6, '0')}.jpg`,
			);
			writeFileSync(file, Buffer.from(frame.data, 'base64'));
			recording.frames.push({ file, at: frame.metadata.timestamp ?? Date.now() / 1000 });
			void session.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => {});
		});
		await session.send('Page.startScreencast', { format: 'jpeg', quality: 80 });
		return recording;
	}

	/** Stops the screencast and writes the video (H.264 MP4) to `output`; returns how long it runs. */
	async save(output: string): Promise<number> {
		await this.session.send('Page.stopScreencast').catch(() => {});
		await this.session.detach().catch(() => {});
		try {
			if (this.frames.length === 0) throw new Error('The screencast sent no frame');
			let seconds = 0;
			const list = this.frames.flatMap(({ file, at }, index) => {
				const next = this.frames[index + 1]?.at ?? at + 1;
				const shown = Math.min(Math.max(next - at, 0.04), MAX_STILL_S);
				seconds += shown;
				return [`file '${file}'`, `duration ${shown.toFixed(3)}`];
			});
			// The concat demuxer takes the last file's duration only when it is listed again.
			list.push(`file '${this.frames[this.frames.length - 1].file}'`);
			const listFile = path.join(this.dir, 'frames.txt');
			writeFileSync(listFile, `${list.join('\n')}\n`);
			mkdirSync(path.dirname(output), { recursive: true });
			await run(
				await ensureFfmpeg(),
				[
					...['-y', '-loglevel', 'error', '-f', 'concat', '-safe', '0', '-i', listFile],
					...['-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p', '-r', '25'],
					...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '28', output],
				],
				{ timeoutMs: 5 * MINUTE },
			);
			return seconds;
		} finally {
			rmSync(this.dir, { recursive: true, force: true });
		}
	}
}
