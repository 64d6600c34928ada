// The official `openai` SDK calling the simulator directly: CALLS chat completions with a
// json_schema response_format, C in flight, after a warm-up of 4 x C; prints this process's CPU
// per measured call as {"us_per_call": X, "user_us_per_call": U} (U: the user-space part).
// Run by chat_cost.mjs.
//   node sdk_direct.mjs SIM_URL/v1 CALLS C SCHEMA_JSON PROMPT
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const clients = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'tests', 'server',
  'openai_clients', 'package.json');
const { default: OpenAI } = await import(pathToFileURL(createRequire(clients).resolve('openai')));

const [url, callsText, cText, schemaText, prompt] = process.argv.slice(2);
const calls = Number(callsText);
const c = Number(cText);
const schema = JSON.parse(schemaText);
const client = new OpenAI({ apiKey: 'sk-bench', baseURL: url, maxRetries: 0 });

async function load(n) {
  let next = 0;
  async function worker() {
    while (next < n) {
      ++next;
      const r = await client.chat.completions.create({
        model: 'sim-1',
        messages: [{ role: 'user', content: prompt }],
        // Not strict: OpenAI's strict mode refuses maxLength (the engine lowers it away).
        response_format: { type: 'json_schema', json_schema: { name: 'ticket', schema, strict: false } },
      });
      JSON.parse(r.choices[0].message.content);
    }
  }
  await Promise.all(Array.from({ length: c }, worker));
}

await load(4 * c);
const before = process.cpuUsage();
await load(calls);
const used = process.cpuUsage(before);
process.stdout.write(JSON.stringify({ us_per_call: (used.user + used.system) / calls,
  user_us_per_call: used.user / calls }));
