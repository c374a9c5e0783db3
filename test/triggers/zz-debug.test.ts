import { runPoll } from '../../nodes/InspectionBusinessTrigger/core/poll';
import { FakeApi } from './fake-api';
import { applyChange } from './history';
const ALL = ['contact.created','contact.updated','inspection.created','inspection.updated','attachment.added'] as any;
const h = {"pageSize":1,"emitExisting":true,"initial":[{"kind":"create","resource":"inspections","pick":0,"action":"confirm","lagMs":13},{"kind":"create","resource":"inspections","pick":0,"action":"confirm","lagMs":0},{"kind":"create","resource":"inspections","pick":0,"action":"confirm","lagMs":0}],"steps":[{"step":"poll","budgetPages":1,"failAt":null,"during":[],"duringAfter":1,"refuseStoredCursors":false},{"step":"poll","budgetPages":1,"failAt":null,"during":[],"duringAfter":1,"refuseStoredCursors":false},{"step":"advance","ms":299946},{"step":"poll","budgetPages":null,"failAt":5,"during":[{"kind":"create","resource":"contacts","pick":0,"action":"confirm","lagMs":0}],"duringAfter":1,"refuseStoredCursors":false},{"step":"poll","budgetPages":null,"failAt":3,"during":[],"duringAfter":1,"refuseStoredCursors":false},{"step":"advance","ms":1},{"step":"mutate","kind":"create","resource":"inspections","pick":0,"action":"confirm","lagMs":0}]} as any;
test('debug', async () => {
  const api = new FakeApi(h.pageSize, 180000);
  for (const op of h.initial) applyChange(api, op);
  let stored: any = {};
  const run = async (budget: number | null, plan: any = {}) => {
    api.beginPoll(plan);
    try {
    const r = await runPoll(stored, api, { events: ALL, overlapMs: 300000, emitExisting: h.emitExisting, budgetMs: budget === null ? 1e15 : budget * 10, now: () => api.localNow });
    console.log(JSON.stringify(r.items.map(i => [i.event, i.record.id, i.record.updated_at])), JSON.stringify(r.state), r.complete, JSON.stringify(api.requests.map(q => q.resource)));
    stored = JSON.parse(JSON.stringify(r.state));
    } catch (e) { console.log('fail', String(e), JSON.stringify(api.requests.map(q => q.resource))); }
  };
  for (const step of h.steps) {
    if (step.step === 'mutate') applyChange(api, step);
    else if (step.step === 'advance') api.advance(step.ms);
    else if (step.step === 'poll') await run(step.budgetPages, { failAt: step.failAt ?? undefined, during: step.during.map((op: any) => ({ after: step.duringAfter, apply: () => applyChange(api, op) })) });
  }
  api.settle();
  for (let i = 0; i < 8; i++) await run(1);
});
