// The Vercel AI SDK's generateObject through @ai-sdk/openai-compatible against `structure serve`.
// Usage: node vercel_ai_test.mjs STRUCTURE_BINARY
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateObject } from 'ai';
import { z } from 'zod';

import { apiKey, checkReasked, resetSim, run, versionOf } from './harness.mjs';

const Ticket = z.object({
  ticket: z.string().regex(/^T-[0-9]{3}$/),
  priority: z.number().int().min(1),
});

globalThis.AI_SDK_LOG_WARNINGS = false;
console.log(`client: ai ${versionOf('ai')}, @ai-sdk/openai-compatible ` +
  `${versionOf('@ai-sdk/openai-compatible')} (zod ${versionOf('zod')})`);
await run('vercel-ai', process.argv[2], async (stack) => {
  const provider = createOpenAICompatible({
    name: 'structure', baseURL: stack.serveUrl, apiKey, supportsStructuredOutputs: true,
  });
  await resetSim(stack.simUrl);
  const { object, usage } = await generateObject({
    model: provider('default:fast'),
    schema: Ticket,
    schemaName: 'ticket',
    prompt: 'CASE-REASK ticket T-123 has priority 2',
    maxRetries: 0,
  });
  await checkReasked(stack, 'generateObject', object,
    { input: usage.inputTokens, output: usage.outputTokens });
});
