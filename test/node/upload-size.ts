/**
 * An upload checks the file's size before it reads the file: n8n records the
 * size of every binary it stores (`bytes`, and the stored file's metadata), so
 * a file over its rule's limit is refused without loading it into memory.
 * Each case counts the reads of n8n's getBinaryDataBuffer in a real execute
 * context; the real size is still checked after reading (test/node/uploads.ts).
 */
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { readBinaryFile } from '../../nodes/InspectionBusiness/helpers/binary';
import { LIMITS } from '../../nodes/shared/endpoints';
import { withExecuteContext, withSandbox } from '../helpers/n8n';

export function uploadSize(): void {
	const sandbox = withSandbox();
	const OVER = Buffer.alloc(LIMITS.photoMaxBytes + 1, 7);
	const UNDER = Buffer.alloc(1024, 7);

	/** Reads the item's photo as the upload does, counting how often the file's data is read. */
	async function readCounting(
		data: Buffer,
		reshape: (binary: IBinaryData) => IBinaryData = (binary) => binary,
	) {
		let reads = 0;
		const { value, error } = await withExecuteContext(
			async function (this: IExecuteFunctions) {
				const item = this.getInputData()[0];
				item.binary = { data: reshape(item.binary!.data) };
				// The probe node declares no fields: answer the two the upload reads.
				this.getNodeParameter = ((name: string, _index: number, fallback?: unknown) =>
					name === 'binaryPropertyName'
						? 'data'
						: fallback) as IExecuteFunctions['getNodeParameter'];
				const original = this.helpers.getBinaryDataBuffer.bind(this.helpers);
				this.helpers.getBinaryDataBuffer = async (...args: [number, string]) => {
					reads++;
					return await original(...args);
				};
				return (await readBinaryFile(this, 0, 'photo')).data.length;
			},
			{
				credentials: sandbox.credentials(),
				items: [
					{ json: {}, binary: { data: { data, fileName: 'p.jpg', mimeType: 'image/jpeg' } } },
				],
			},
		);
		return { length: value, error, reads };
	}

	it('a file under the limit is read once', async () => {
		expect(await readCounting(UNDER)).toEqual({ length: UNDER.length, error: undefined, reads: 1 });
	});

	it('over the limit, by the size n8n recorded (bytes): refused, never read', async () => {
		const { error, reads } = await readCounting(OVER);
		expect(error?.message).toMatch(/at most 10 MB; this file has 10 MB/);
		expect(reads).toBe(0);
	});

	it("over the limit, by the stored file's metadata (no bytes recorded): refused, never read", async () => {
		const { error, reads } = await readCounting(OVER, ({ bytes: _bytes, ...rest }) => rest);
		expect(error?.message).toMatch(/at most 10 MB/);
		expect(reads).toBe(0);
	});

	it('over the limit, held in memory as base64 (no id, no bytes): refused, never decoded', async () => {
		const { error, reads } = await readCounting(OVER, (binary) => ({
			data: OVER.toString('base64'),
			mimeType: binary.mimeType,
			fileName: binary.fileName,
		}));
		expect(error?.message).toMatch(/at most 10 MB/);
		expect(reads).toBe(0);
	});
}
