import { runPoll } from '../../nodes/InspectionBusinessTrigger/core/poll';
import { FakeApi } from './fake-api';
import { applyChange } from './history';
const ALL = ['contact.created','contact.updated','inspection.created','inspection.updated','attachment.added'] as any;
test('debug', async () => {
  const api = new FakeApi(1, 180000);
  applyChange(api, {"kind":"create","resource":"contacts","pick":0,"action":"confirm","lagMs":21});
  let stored: any = {};
  const run = async (budget: number) => {
    api.beginPoll({});
    const r = await runPoll(stored, api, { events: ALL, overlapMs: 300000, emitExisting: false, budgetMs: budget, now: () => api.localNow });
    console.log(JSON.stringify(r.items.map(i => [i.event, i.record.id])), JSON.stringify(r.state), r.complete, JSON.stringify(api.requests.map(q => q.resource)));
    stored = JSON.parse(JSON.stringify(r.state));
  };
  await run(1e12); await run(10); api.settle();
  for (let i = 0; i < 6; i++) await run(10);
});
