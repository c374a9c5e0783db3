/** Small, real files by extension: the seed's photos and attachments, and handy test fixtures. */
const b64 = (text: string) => Buffer.from(text, 'base64');

const PDF = Buffer.from(
	'%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
		'3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

export const SAMPLE_FILES = {
	png: b64(
		'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
	),
	jpg: b64(
		'/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////' +
			'////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
	),
	gif: b64('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'),
	webp: b64('UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA'),
	pdf: PDF,
	txt: Buffer.from('Inspector notes: check the north downspout again at the re-inspection.\n'),
	csv: Buffer.from('item,location,severity\nGFCI missing,Kitchen,high\n'),
	xlsx: Buffer.from('PK\u0003\u0004 sandbox placeholder workbook'),
} as const;

export type SampleExtension = keyof typeof SAMPLE_FILES;
