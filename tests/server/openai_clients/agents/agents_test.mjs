// The OpenAI Agents SDK against `structure serve`: an agent with a zod outputType, run plain and
// streamed, over the Responses API (the SDK's default, POST /v1/responses). Its own folder and
// lock file: the SDK needs zod 4 (../package-lock.json pins zod 3 for instructor-js).
// Usage: node agents/agents_test.mjs STRUCTURE_BINARY
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Agent, run as runAgent, setDefaultOpenAIClient, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';

import { apiKey, check, checkReasked, resetSim, run } from '../harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const versionOf = (pkg) =>
  JSON.parse(readFileSync(join(here, 'node_modules', pkg, 'package.json'), 'utf8')).version;

const Ticket = z.object({
  ticket: z.string().regex(/^T-[0-9]{3}$/),
  priority: z.number().int().min(1),
});

console.log(`client: @openai/agents ${versionOf('@openai/agents')} (openai ${versionOf('openai')}, ` +
  `zod ${versionOf('zod')})`);
await run('agents', process.argv[2], async (stack) => {
  setTracingDisabled(true);
  setDefaultOpenAIClient(new OpenAI({ apiKey, baseURL: stack.serveUrl, maxRetries: 0 }));
  const agent = new Agent({
    name: 'extract', instructions: 'Extract the ticket.', model: 'default:fast', outputType: Ticket,
  });
  const usageOf = (raw) => ({
    input: raw.reduce((n, r) => n + r.usage.inputTokens, 0),
    output: raw.reduce((n, r) => n + r.usage.outputTokens, 0),
  });

  await resetSim(stack.simUrl);
  const plain = await runAgent(agent, 'CASE-REASK ticket T-123 has priority 2');
  await checkReasked(stack, 'run', plain.finalOutput, usageOf(plain.rawResponses));

  await resetSim(stack.simUrl);
  const streamed = await runAgent(agent, 'CASE-REASK ticket T-123 has priority 2', { stream: true });
  let events = 0;
  for await (const event of streamed) events += event ? 1 : 0;
  await streamed.completed;
  check(events > 0, `run streamed: ${events} events`);
  await checkReasked(stack, 'run streamed', streamed.finalOutput, usageOf(streamed.rawResponses));

  const metrics = await (await fetch(stack.serveUrl.replace(/\/v1$/, '/metrics'))).text();
  const served = [...metrics.matchAll(/structure_calls_total\{endpoint="responses",[^}]*\} (\d+)/g)]
    .reduce((sum, m) => sum + Number(m[1]), 0);
  check(served === 2, `both runs went to POST /v1/responses (${served})`);
});
