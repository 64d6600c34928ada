// The Vercel AI SDK's generateObject against `structure serve`: through @ai-sdk/openai-compatible
// (Chat Completions) and through @ai-sdk/openai's Responses model (POST /v1/responses, that
// provider's default).
// Usage: node vercel_ai_test.mjs STRUCTURE_BINARY
import { createOpenAI } from '@ai-sdk/openai';
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
  `${versionOf('@ai-sdk/openai-compatible')}, @ai-sdk/openai ${versionOf('@ai-sdk/openai')} ` +
  `(zod ${versionOf('zod')})`);
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

  const openai = createOpenAI({ baseURL: stack.serveUrl, apiKey });
  await resetSim(stack.simUrl);
  const viaResponses = await generateObject({
    model: openai.responses('default:fast'),
    schema: Ticket,
    schemaName: 'ticket',
    prompt: 'CASE-REASK ticket T-123 has priority 2',
    maxRetries: 0,
  });
  await checkReasked(stack, 'generateObject (responses)', viaResponses.object,
    { input: viaResponses.usage.inputTokens, output: viaResponses.usage.outputTokens });
});
