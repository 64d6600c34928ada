// instructor-js in TOOLS mode (a forced function call) against `structure serve`.
// Usage: node instructor_test.mjs STRUCTURE_BINARY
import Instructor from '@instructor-ai/instructor';
import OpenAI from 'openai';
import { z } from 'zod';

import { apiKey, checkReasked, resetSim, run, versionOf } from './harness.mjs';

const Ticket = z.object({
  ticket: z.string().regex(/^T-[0-9]{3}$/),
  priority: z.number().int().min(1),
});

console.log(`client: @instructor-ai/instructor ${versionOf('@instructor-ai/instructor')}, openai ` +
  `${versionOf('openai')} (zod ${versionOf('zod')})`);
await run('instructor', process.argv[2], async (stack) => {
  const oai = new OpenAI({ apiKey, baseURL: stack.serveUrl, maxRetries: 0 });
  const client = Instructor({ client: oai, mode: 'TOOLS' });
  await resetSim(stack.simUrl);
  const ticket = await client.chat.completions.create({
    model: 'default:fast',
    messages: [{ role: 'user', content: 'CASE-REASK ticket T-123 has priority 2' }],
    response_model: { schema: Ticket, name: 'Ticket' },
    max_retries: 0,
  });
  const u = ticket._meta?.usage;
  const { _meta, ...object } = ticket;
  await checkReasked(stack, 'TOOLS', object,
    { input: u?.prompt_tokens, output: u?.completion_tokens });
});
