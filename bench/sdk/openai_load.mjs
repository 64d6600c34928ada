// The official OpenAI Node SDK under the same load as bench_tls puts on the engine: INFLIGHT
// calls at a time, each the same chat completion with a strict json_schema response format,
// the reply parsed. One warm-up wave opens the connections; then CALLS calls are measured.
// Prints one JSON line: ok, failed, cpu_us_per_call (this process, user + system, over the
// measured calls), calls_per_s (steady window of whole waves, as bench/steady_window.h),
// max_rss_kb.
//
//   node openai_load.mjs BASE_URL INFLIGHT CALLS
// A test CA goes in NODE_EXTRA_CA_CERTS. SDK retries stay at their default (2).
import OpenAI from 'openai';

const [baseURL, inflightArg, callsArg] = process.argv.slice(2);
const inflight = Number(inflightArg);
const calls = Number(callsArg);
const client = new OpenAI({baseURL: `${baseURL}/v1`, apiKey: 'sk-bench', timeout: 600_000});
const schema = {
  type: 'object',
  properties: {name: {type: 'string'}, age: {type: 'integer'}},
  required: ['name', 'age'],
  additionalProperties: false,
};

async function one(i) {
  const r = await client.chat.completions.create({
    model: 'sim-model',
    messages: [
      {role: 'system', content: 'Extract the person.'},
      {role: 'user', content: `Ada Lovelace, 36. #${i}`},
    ],
    response_format: {type: 'json_schema', json_schema: {name: 'person', strict: true, schema}},
    max_completion_tokens: 100,
  });
  JSON.parse(r.choices[0].message.content);
}

// `total` calls, `inflight` at a time; completion times in seconds since the start.
async function drive(total) {
  const t0 = process.hrtime.bigint();
  const done = [];
  let next = 0, ok = 0, failed = 0;
  async function worker() {
    while (next < total) {
      const i = next++;
      try {
        await one(i);
        ok++;
      } catch (e) {
        if (failed++ < 3) console.error(`call failed: ${e.message}`);
      }
      done.push(Number(process.hrtime.bigint() - t0) / 1e9);
    }
  }
  await Promise.all(Array.from({length: Math.min(inflight, total)}, worker));
  return {ok, failed, done};
}

// Calls per second between the end of the wave holding 10 % and the wave holding 90 %.
function steadyRate(done, wave) {
  const n = done.length, waves = Math.floor(n / wave);
  let lo = wave * Math.max(1, Math.round(0.1 * waves)), hi = wave * Math.round(0.9 * waves);
  if (waves < 3 || hi <= lo) lo = Math.floor(n / 10), hi = Math.floor(n * 9 / 10);
  if (lo === 0 || hi <= lo || done[hi - 1] <= done[lo - 1]) return 0;
  return (hi - lo) / (done[hi - 1] - done[lo - 1]);
}

await drive(inflight);
const cpu0 = process.cpuUsage();
const run = await drive(calls);
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({
  ok: run.ok,
  failed: run.failed,
  cpu_us_per_call: (cpu.user + cpu.system) / calls,
  calls_per_s: steadyRate(run.done, inflight),
  max_rss_kb: process.resourceUsage().maxRSS,
}));
