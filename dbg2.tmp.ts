import { withDefaults } from './nodes/InspectionBusinessTrigger/options';
import { runPoll } from './nodes/InspectionBusinessTrigger/poll';
import { MomentsApi } from './test/triggers/moments-api';
(async () => {
  const api = new MomentsApi();
  const o = (events: string[]) => ({ ...withDefaults(), events: events as never, budgetMs: 60000, now: () => api.now });
  let r = await runPoll({}, api, o(['inspection.deleted']));
  console.log(JSON.stringify(r.state.inspections));
  api.now += 1000;
  api.createInspection({ reports: { status: 'published', items: [] } });
  api.now += 3 * 3600_000;
  r = await runPoll(JSON.parse(JSON.stringify(r.state)), api, o(['inspection.deleted', 'inspection.published']));
  console.log(JSON.stringify(r.state.inspections), JSON.stringify(r.items.map((i) => i.event)));
})();
