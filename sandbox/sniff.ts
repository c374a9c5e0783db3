/** Real-image check by magic bytes (photo uploads): the detected type, or null when the bytes are no image. */
export function sniffImage(
	data: Buffer,
): 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp' | null {
	const starts = (bytes: number[], at = 0) => bytes.every((b, i) => data[at + i] === b);
	if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
	if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
	const head = data.subarray(0, 6).toString('latin1');
	if (head === 'GIF87a' || head === 'GIF89a') return 'image/gif';
	if (
		data.subarray(0, 4).toString('latin1') === 'RIFF' &&
		data.subarray(8, 12).toString('latin1') === 'WEBP'
	) {
		return 'image/webp';
	}
	return null;
}
