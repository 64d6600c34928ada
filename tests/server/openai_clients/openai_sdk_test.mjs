// The official OpenAI SDK against `structure serve`: chat.completions.parse with
// zodResponseFormat, chat.completions.stream, a refusal (need-more-input), models.retrieve; the
// Responses API (responses.parse and responses.stream with zodTextFormat, a refusal); and
// another OpenAI API answered with what to call instead.
// Usage: node openai_sdk_test.mjs STRUCTURE_BINARY
import OpenAI from 'openai';
import { zodResponseFormat, zodTextFormat } from 'openai/helpers/zod';
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

  // The Responses API: responses.parse and responses.stream with zodTextFormat.
  const responseUsage = (u) => ({ input: u?.input_tokens, output: u?.output_tokens });
  await resetSim(stack.simUrl);
  const response = await client.responses.parse({
    model: 'default:fast',
    instructions: 'Extract the ticket.',
    input: 'CASE-REASK ticket T-123 has priority 2',
    text: { format: zodTextFormat(Ticket, 'ticket') },
  });
  await checkReasked(stack, 'responses.parse', response.output_parsed, responseUsage(response.usage));

  await resetSim(stack.simUrl);
  const rstream = client.responses.stream({
    model: 'default:fast',
    input: [{ role: 'user', content: [{ type: 'input_text', text: 'CASE-SLOW ticket T-123 has priority 2' }] }],
    text: { format: zodTextFormat(Ticket, 'ticket') },
  });
  let events = 0;
  for await (const event of rstream) events += event ? 1 : 0;
  const rfinal = await rstream.finalResponse();
  check(events >= 9, `responses.stream: ${events} events`);
  await checkReasked(stack, 'responses.stream', rfinal.output_parsed, responseUsage(rfinal.usage));

  const rrefused = await client.responses.parse({
    model: 'default:fast',
    input: 'CASE-NEED someone called about something',
    text: { format: zodTextFormat(Ticket, 'ticket') },
  });
  const rpart = rrefused.output[0]?.content?.[0];
  check(rpart?.type === 'refusal' && rpart.refusal === 'the ticket number is not in the text' &&
    rrefused.output_parsed == null,
  `responses.parse refusal: need-more-input comes back as a refusal part (${JSON.stringify(rpart)})`);

  // Another OpenAI API: the SDK's error says what to call instead.
  try {
    await client.embeddings.create({ model: 'default:fast', input: 'T-123' });
    check(false, 'embeddings.create: an error');
  } catch (e) {
    check(e instanceof OpenAI.NotFoundError && e.code === 'unknown_url' &&
      e.message.includes('responses.parse'),
    `embeddings.create: NotFoundError naming what to call (${e?.message})`);
  }
});
