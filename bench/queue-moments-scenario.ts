/**
 * What `npm run bench:queue-moments` makes happen through the sandbox's control API, as the
 * business would live it (test/e2e/moments.e2e.test.ts makes the same moments), and the moments
 * that must be reported for it, each exactly once. The workflow's options are the defaults: Only
 * Trigger Once on, Starting 24 hours before, Ended 24 hours after, confirmed inspections only.
 *
 * Each step ends with a marker: an inspection created after the step's changes, waited for until
 * the trigger reports it. The poll that reports the marker read the list after every change of the
 * step, so whatever the step should have made is reported by then; a marker that never comes is
 * logged and the run goes on (its own moments then show as missing).
 */
import type { SandboxControl } from '../sandbox/client';
import type { Expected } from './queue-moments-report';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const QUARTER_HOUR = 15 * MINUTE;
/** The inspector the sandbox puts on every new inspection. */
const FIRST_INSPECTOR = { id: 'insp-acme-1', name: 'Alex Rivera' };
const SECOND_INSPECTOR = { id: 'insp-acme-9', name: 'Jordan Lee' };

/** The scenario's records by their part in it (see `created`), and when T starts. */
interface Records {
	p: string;
	s: string;
	ps: string;
	n: string;
	team: string;
	fees: string;
	contact: string;
	timed: string;
	start: number;
}

export class MomentsScenario {
	readonly expected: Expected[] = [];
	/** Every record the scenario made: a report for one of them must be expected. */
	readonly records = new Set<string>();
	private markers = 0;

	constructor(
		private readonly control: SandboxControl,
		/** Resolves true once the trigger reported `inspection.created` for the record, false on timeout. */
		private readonly createdReported: (recordId: string) => Promise<boolean>,
		private readonly log: (line: string) => void,
	) {}

	private expect(what: string, recordId: string, moments: string[], inspectorId?: string): void {
		for (const moment of moments) this.expected.push({ moment, recordId, inspectorId, what });
	}

	/** A new inspection: created, and its first inspector assigned (a new inspection's inspectors are). */
	private async inspection(what: string, fields: Record<string, unknown> = {}): Promise<string> {
		const id = String((await this.control.createInspection({ org: 'acme', ...fields })).id);
		this.records.add(id);
		this.expect(what, id, ['inspection.created']);
		this.expect(what, id, ['inspection.inspector_assigned'], FIRST_INSPECTOR.id);
		return id;
	}

	/** Ends a step: waits until an inspection created after its changes is reported. */
	private async settle(step: string): Promise<void> {
		const id = await this.inspection(`the marker after ${step}`);
		this.markers++;
		const started = Date.now();
		if (await this.createdReported(id))
			this.log(
				`${step}: done (marker ${this.markers} reported after ${Math.round((Date.now() - started) / 1000)} s)`,
			);
		else this.log(`${step}: the marker ${id} was not reported in time; going on`);
	}

	/** The six steps, in order; each ends when its marker is reported. */
	async run(): Promise<void> {
		const records = await this.created();
		await this.settle('step 1 (created, a partial payment, one agreement of two signed)');
		await this.paidSignedAndMore(records);
		await this.settle('step 2 (paid, signed, inspectors, fees, a new role)');
		await this.signedAfterPaid(records);
		await this.settle('step 3 (signed after paid, published)');
		await this.onlyOnce(records);
		await this.settle('step 4 (published, an add-on paid, a role given again)');
		await this.control.setClock(new Date(records.start - 24 * HOUR + MINUTE).toISOString());
		this.expect('T', records.timed, ['inspection.starting']);
		await this.settle('step 5 (the clock 24 hours before T starts)');
		await this.control.setClock(
			new Date(records.start + 3 * HOUR + 24 * HOUR + MINUTE).toISOString(),
		);
		this.expect('T', records.timed, ['inspection.ended']);
		await this.settle('step 6 (the clock 24 hours after T ended)');
	}

	/** Step 1: the records, with a partial payment and one agreement of two signed (neither a moment). */
	private async created(): Promise<Records> {
		const { control } = this;
		const confirmed = { status: 'confirmed' };
		// P: paid in two payments, with an agreement never signed (paid, never paid and signed).
		const p = await this.inspection('P (paid, an agreement unsigned)', confirmed);
		await control.addAgreements(p, ['Pre-Inspection Agreement']);
		await control.addPayment(p, 100);
		// S: two agreements, signed one at a time; never paid.
		const s = await this.inspection('S (agreements signed)', confirmed);
		await control.addAgreements(s, ['Pre-Inspection Agreement', 'Radon Addendum']);
		await control.signAgreements(s, 0);
		// PS: paid, then signed, then published.
		const ps = await this.inspection('PS (paid, signed, published)', confirmed);
		await control.addAgreements(ps, ['Pre-Inspection Agreement']);
		// N: nothing to sign: paid is paid and signed.
		const n = await this.inspection('N (nothing to sign)', confirmed);
		const team = await this.inspection('I (inspectors)', confirmed);
		const fees = await this.inspection('F (fees)', confirmed);
		const contact = String(
			(
				await control.createContact('acme', {
					first_name: 'Quinn',
					email: 'quinn.queue-moments@example.com',
				})
			).id,
		);
		this.records.add(contact);
		// T: starts 30 hours from the sandbox's now, on a quarter hour (the end the trigger keeps is
		// rounded up to one), for 3 hours.
		const now = Date.parse((await control.getClock()).now);
		const start = Math.ceil((now + 30 * HOUR) / QUARTER_HOUR) * QUARTER_HOUR;
		const timed = await this.inspection('T (starting and ended)', {
			...confirmed,
			scheduled_for: new Date(start).toISOString(),
			duration_hours: 3,
		});
		return { p, s, ps, n, team, fees, contact, timed, start };
	}

	/** Step 2: paid, signed, nothing to sign paid, an inspector assigned and one removed, fees, a role. */
	private async paidSignedAndMore({ p, s, ps, n, team, fees, contact }: Records): Promise<void> {
		const { control } = this;
		await control.addPayment(p, 325);
		this.expect('P', p, ['inspection.paid']);
		await control.signAgreements(s, 1);
		this.expect('S', s, ['inspection.agreements_signed']);
		await control.payInspection(ps);
		this.expect('PS', ps, ['inspection.paid']);
		await control.payInspection(n);
		this.expect('N', n, ['inspection.paid', 'inspection.paid_and_signed']);
		await control.assignInspector(team, SECOND_INSPECTOR);
		this.expect('I', team, ['inspection.inspector_assigned'], SECOND_INSPECTOR.id);
		await control.removeInspector(team, FIRST_INSPECTOR.id);
		this.expect('I', team, ['inspection.inspector_removed'], FIRST_INSPECTOR.id);
		const sewer = { id: 'addon-42', name: 'Sewer Scope', kind: 'add_on' as const, price: 175 };
		await control.addService(fees, sewer);
		this.expect('F', fees, ['inspection.fees_changed']);
		await control.addContactToInspection(fees, contact, 'Buyer Agent');
		this.expect('contact Quinn', contact, ['contact.new_role']);
	}

	/** Step 3: PS signed after it was paid; N published. */
	private async signedAfterPaid({ ps, n }: Records): Promise<void> {
		await this.control.signAgreements(ps);
		this.expect('PS', ps, ['inspection.agreements_signed', 'inspection.paid_and_signed']);
		await this.control.publishReports(n);
		this.expect('N', n, ['inspection.paid_signed_published']);
	}

	/**
	 * Step 4: PS published. Only Trigger Once: an add-on sold after the payment, then paid, is a fee
	 * change, not Paid again; a role given again is not new.
	 */
	private async onlyOnce({ p, ps, team, contact }: Records): Promise<void> {
		const { control } = this;
		await control.publishReports(ps);
		this.expect('PS', ps, ['inspection.paid_signed_published']);
		await control.addService(p, { id: 'addon-radon', name: 'Radon', kind: 'add_on', price: 150 });
		await control.payInspection(p);
		this.expect('P', p, ['inspection.fees_changed']);
		await control.addContactToInspection(team, contact, 'Buyer Agent');
	}
}
