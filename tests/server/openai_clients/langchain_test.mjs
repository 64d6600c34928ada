// LangChain JS withStructuredOutput (@langchain/openai ChatOpenAI) against `structure serve`, with
// its default JSON-schema method and with function calling (a forced tool).
// Usage: node langchain_test.mjs STRUCTURE_BINARY
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';

import { apiKey, checkReasked, resetSim, run, versionOf } from './harness.mjs';

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
  for (const method of ['jsonSchema', 'functionCalling']) {
    await resetSim(stack.simUrl);
    const structured = model.withStructuredOutput(Ticket, { name: 'ticket', method, includeRaw: true });
    const { raw, parsed } = await structured.invoke('CASE-REASK ticket T-123 has priority 2');
    const u = raw.usage_metadata;
    await checkReasked(stack, `withStructuredOutput ${method}`, parsed,
      { input: u?.input_tokens, output: u?.output_tokens });
  }
});
