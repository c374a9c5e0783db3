/** Seeded pseudo-random numbers (sfc32 seeded by a string hash), so a seed name always gives the same data. */
export class Prng {
	private a: number;
	private b: number;
	private c: number;
	private d: number;

	constructor(seed: string) {
		let h = 1779033703 ^ seed.length;
		const next = () => {
			h = Math.imul(h ^ (h >>> 16), 2246822507);
			h = Math.imul(h ^ (h >>> 13), 3266489909);
			return (h ^= h >>> 16) >>> 0;
		};
		for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
		h = (h << 13) | (h >>> 19);
		this.a = next();
		this.b = next();
		this.c = next();
		this.d = next();
		for (let i = 0; i < 12; i++) this.uint32();
	}

	uint32(): number {
		const t = (((this.a + this.b) | 0) + this.d) | 0;
		this.d = (this.d + 1) | 0;
		this.a = this.b ^ (this.b >>> 9);
		this.b = (this.c + (this.c << 3)) | 0;
		this.c = (this.c << 21) | (this.c >>> 11);
		this.c = (this.c + t) | 0;
		return t >>> 0;
	}

	/** A float in [0, 1). */
	next(): number {
		return this.uint32() / 4294967296;
	}

	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	chance(p: number): boolean {
		return this.next() < p;
	}

	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}

	/** A version-4-shaped uuid drawn from this stream. */
	uuid(): string {
		const hex = [this.uint32(), this.uint32(), this.uint32(), this.uint32()]
			.map((n) => n.toString(16).padStart(8, '0'))
			.join('');
		const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
		return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
	}
}
