// LangChain JS withStructuredOutput (@langchain/openai ChatOpenAI) against `structure serve`, with
// its default JSON-schema method and with function calling (a forced tool).
// Usage: node langchain_test.mjs STRUCTURE_BINARY
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';

import { apiKey, check, checkReasked, resetSim, run, versionOf } from './harness.mjs';

const Ticket = z.object({
  ticket: z.string().regex(/^T-[0-9]{3}$/),
  priority: z.number().int().min(1),
});

console.log(`client: @langchain/openai ${versionOf('@langchain/openai')}, @langchain/core ` +
  `${versionOf('@langchain/core')} (zod ${versionOf('zod')})`);
await run('langchain', process.argv[2], async (stack) => {
  const model = new ChatOpenAI({
    model: 'default:fast', apiKey, maxRetries: 0, configuration: { baseURL: stack.serveUrl },
  });
  // The same over the Responses API (useResponsesApi: POST /v1/responses).
  const responses = new ChatOpenAI({
    model: 'default:fast', apiKey, maxRetries: 0, useResponsesApi: true,
    configuration: { baseURL: stack.serveUrl },
  });
  for (const [label, client] of [['', model], [' (responses)', responses]]) {
    for (const method of ['jsonSchema', 'functionCalling']) {
      await resetSim(stack.simUrl);
      const structured = client.withStructuredOutput(Ticket, { name: 'ticket', method, includeRaw: true });
      const { raw, parsed } = await structured.invoke('CASE-REASK ticket T-123 has priority 2');
      const u = raw.usage_metadata;
      await checkReasked(stack, `withStructuredOutput ${method}${label}`, parsed,
        { input: u?.input_tokens, output: u?.output_tokens });
    }
  }
  const metrics = await (await fetch(stack.serveUrl.replace(/\/v1$/, '/metrics'))).text();
  const served = [...metrics.matchAll(/structure_calls_total\{endpoint="responses",[^}]*\} (\d+)/g)]
    .reduce((sum, m) => sum + Number(m[1]), 0);
  check(served === 2, `useResponsesApi: both calls went to POST /v1/responses (${served})`);
});
