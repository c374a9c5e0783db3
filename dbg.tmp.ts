import fc from 'fast-check';
import { historyArbitrary, runHistory } from './test/triggers/moments.history';
const [seed, path] = [Number(process.argv[2]), process.argv[3]];
(async () => {
  let last: unknown;
  try {
    await fc.assert(fc.asyncProperty(historyArbitrary, async (h) => { last = h; await runHistory(h); }), { seed, path, endOnFailure: true, numRuns: 1 });
    console.log('passed');
  } catch (e) { console.log(String((e as Error).message).split('\n').slice(0, 3).join('\n')); console.log(JSON.stringify(last)); }
})();
