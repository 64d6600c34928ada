// What both chat_cost.mjs and chat_instructions.mjs send: one schema and prompt, as the native
// body, as a chat completion and as a Responses API request; serve's config for the simulator; N calls with C in flight.
import { serverKeyToml } from '../../tests/server/openai_clients/harness.mjs';

export const KEY = 'key-bench';

export const schema = {
  type: 'object',
  properties: {
    ticket: { type: 'string', pattern: '^T-[0-9]{3}$' },
    priority: { type: 'integer', minimum: 1, maximum: 5 },
    summary: { type: 'string', maxLength: 200 },
  },
  required: ['ticket', 'priority', 'summary'],
  additionalProperties: false,
};
export const prompt = 'Ticket T-123: the build broke at 9:00, priority 2.';
export const bodies = {
  structure: JSON.stringify({ prompt, schema }),
  chat: JSON.stringify({
    model: 'default:fast',
    messages: [{ role: 'user', content: prompt }],
    response_format: { type: 'json_schema', json_schema: { name: 'ticket', schema, strict: true } },
  }),
  responses: JSON.stringify({
    model: 'default:fast',
    input: prompt,
    text: { format: { type: 'json_schema', name: 'ticket', schema, strict: true } },
  }),
};
export const paths = {
  structure: '/v1/structure', chat: '/v1/chat/completions', responses: '/v1/responses',
};

// serve's config: the simulator as an OpenAI provider, limits far above the load, KEY's key.
export const serveToml = `
[providers.simulator]
kind = "openai"
model = "sim-1"
[providers.simulator.limits]
max_concurrency = 512
[server]
max_inflight = 4096
max_connections = 4096
${serverKeyToml(KEY, 'bench')}`;

// N calls, C in flight; rejects on any non-200.
export async function load(url, body, calls, concurrency) {
  let next = 0;
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  async function worker() {
    while (next < calls) {
      ++next;
      const r = await fetch(url, { method: 'POST', headers, body });
      const text = await r.text();
      if (r.status !== 200) throw new Error(`${url}: ${r.status} ${text}`);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
}
