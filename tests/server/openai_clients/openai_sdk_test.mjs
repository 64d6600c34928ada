// The official OpenAI SDK against `structure serve`: chat.completions.parse with
// zodResponseFormat, chat.completions.stream, a refusal (need-more-input), models.retrieve,
// and responses.create answered with what to call instead.
// Usage: node openai_sdk_test.mjs STRUCTURE_BINARY
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { z } from 'zod';

import { apiKey, check, checkReasked, resetSim, run, versionOf } from './harness.mjs';

const Ticket = z.object({
  ticket: z.string().regex(/^T-[0-9]{3}$/),
  priority: z.number().int().min(1),
});

console.log(`client: openai ${versionOf('openai')} (zod ${versionOf('zod')})`);
await run('openai', process.argv[2], async (stack) => {
  const client = new OpenAI({ apiKey, baseURL: stack.serveUrl, maxRetries: 0 });
  const usageOf = (u) => ({ input: u?.prompt_tokens, output: u?.completion_tokens });

  await resetSim(stack.simUrl);
  const parsed = await client.chat.completions.parse({
    model: 'default:fast',
    messages: [{ role: 'system', content: 'Extract the ticket.' },
      { role: 'user', content: 'CASE-REASK ticket T-123 has priority 2' }],
    response_format: zodResponseFormat(Ticket, 'ticket'),
  });
  await checkReasked(stack, 'parse', parsed.choices[0].message.parsed, usageOf(parsed.usage));
  check(parsed.structure?.iterations === 2, `parse: structure.iterations is 2`);

  await resetSim(stack.simUrl);
  const stream = client.chat.completions.stream({
    model: 'default:fast',
    messages: [{ role: 'user', content: 'CASE-SLOW ticket T-123 has priority 2' }],
    response_format: zodResponseFormat(Ticket, 'ticket'),
    stream_options: { include_usage: true },
  });
  let chunks = 0;
  for await (const chunk of stream) chunks += chunk ? 1 : 0;
  const final = await stream.finalChatCompletion();
  check(chunks >= 2, `stream: ${chunks} chunks`);
  await checkReasked(stack, 'stream', final.choices[0].message.parsed, usageOf(final.usage));

  const refused = await client.chat.completions.parse({
    model: 'default:fast',
    messages: [{ role: 'user', content: 'CASE-NEED someone called about something' }],
    response_format: zodResponseFormat(Ticket, 'ticket'),
  });
  const m = refused.choices[0].message;
  check(m.refusal === 'the ticket number is not in the text' && m.parsed == null,
    `refusal: need-more-input comes back as message.refusal (${JSON.stringify(m)})`);

  try {
    await client.chat.completions.create({
      model: 'no-such-model', messages: [{ role: 'user', content: 'x' }],
      response_format: { type: 'json_object' },
    });
    check(false, 'unknown model: an error');
  } catch (e) {
    check(e instanceof OpenAI.NotFoundError && e.code === 'model_not_found',
      `unknown model: NotFoundError model_not_found (${e?.constructor?.name} ${e?.code})`);
  }

  const model = await client.models.retrieve('simulator/sim-1');
  check(model.id === 'simulator/sim-1' && model.object === 'model',
    `models.retrieve: the entry (${JSON.stringify(model)})`);

  // The Responses API is not served: the SDK's error says what to call instead.
  try {
    await client.responses.create({ model: 'default:fast', input: 'T-123' });
    check(false, 'responses.create: an error');
  } catch (e) {
    check(e instanceof OpenAI.NotFoundError && e.code === 'unknown_url' &&
      e.message.includes('chat.completions.parse'),
    `responses.create: NotFoundError naming chat.completions.parse (${e?.message})`);
  }
});
