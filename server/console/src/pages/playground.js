// Playground: one structure call with every iteration shown (the lowered schema sent, the
// answer, the validator's messages, the reason text sent back), its usage and cost, and the
// call as a command line or SDK snippet.
import { h, fill, field, select, notice, pretty, codeBlock, copyButton, fmtInt } from '../dom.js';
import { call, get, cost, fmtCost, publicRoot } from '../api.js';
import { runCommand, curlCommand, openaiSnippet } from '../snippets.js';
import { showSingle } from './evidence.js';

const EXAMPLE_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    priority: { type: 'integer', minimum: 1, maximum: 5 },
  },
  required: ['name', 'priority'],
  additionalProperties: false,
};

// What the form held last, so coming back to the page keeps it.
const saved = {
  prompt: 'Mike broke the build today at 9:00 UTC',
  kind: 'named',
  inline: JSON.stringify(EXAMPLE_SCHEMA, null, 2),
  name: 'user-action-record',
  text: 'name (string), priority (integer 1-5)',
  model: '',
  maxLoops: '',
  evidence: '',
  finalTool: false,
  project: '',
};

export function projectControl(me, value) {
  const explicit = me.projects.filter((p) => p !== '*');
  if (me.projects.includes('*')) {
    return h('input', { type: 'text', value, placeholder: '(tenant level)', list: 'projects-list', spellcheck: 'false' });
  }
  return select([['', '(tenant level)'], ...explicit.map((p) => [p, p])], value);
}

function buildBody(v) {
  const body = { prompt: v.prompt };
  if (v.kind === 'inline') body.schema = JSON.parse(v.inline);
  if (v.kind === 'named') body.schemaName = v.name.trim();
  if (v.kind === 'text') body.schemaText = v.text;
  if (v.model.trim()) body.model = v.model.trim();
  if (v.maxLoops) body.maxLoops = Number(v.maxLoops);
  if (v.evidence) body.evidence = v.evidence;
  if (v.finalTool) body.finalTool = true;
  if (v.project.trim()) body.project = v.project.trim();
  return body;
}

export async function render(main, params, me) {
  const schemas = await get(`v1/schemas${saved.project ? `?project=${encodeURIComponent(saved.project)}` : ''}`)
    .then((b) => b.schemas.map((s) => s.name))
    .catch(() => []);
  const prompt = h('textarea', { rows: 6, value: saved.prompt, spellcheck: 'false' });
  const kindName = 'schema-kind';
  const kinds = [
    ['inline', 'Inline JSON Schema'],
    ['named', 'Registry name'],
    ['text', 'Description in words'],
  ];
  const radios = kinds.map(([v, label]) => {
    const r = h('input', { type: 'radio', name: kindName, value: v, id: `kind-${v}`, checked: saved.kind === v });
    return h('span', { class: 'radio' }, r, h('label', { for: `kind-${v}` }, label));
  });
  const inline = h('textarea', { rows: 10, value: saved.inline, class: 'mono', spellcheck: 'false' });
  const name = h('input', { type: 'text', value: saved.name, list: 'schema-names', spellcheck: 'false' });
  const text = h('input', { type: 'text', value: saved.text });
  const model = h('input', { type: 'text', value: saved.model, list: 'model-list', placeholder: me.defaults.model, spellcheck: 'false' });
  const loops = h('input', { type: 'number', min: me.limits.minLoops, max: me.limits.maxLoops, value: saved.maxLoops, placeholder: String(me.defaults.maxLoops) });
  const evidenceMode = select([['', `(settings: ${me.defaults.evidence})`], 'off', 'report', 'require'], saved.evidence);
  const finalTool = h('input', { type: 'checkbox', id: 'final-tool', checked: saved.finalTool });
  const project = projectControl(me, saved.project);
  const schemaBox = h('div', { class: 'schema-input' });
  const out = h('section', { class: 'result', 'aria-live': 'polite', 'aria-label': 'Result' });

  const showKind = () => {
    const kind = radios.map((r) => r.firstChild).find((r) => r.checked).value;
    fill(
      schemaBox,
      kind === 'inline' && field('Schema (JSON)', inline),
      kind === 'named' && field('Schema name', name, 'project → tenant → bundled, as the API resolves it'),
      kind === 'text' && field('Schema description', text, 'built by the schema builder'),
    );
  };
  for (const r of radios) r.firstChild.addEventListener('change', showKind);
  showKind();

  const run = h('button', { type: 'submit' }, 'Run');
  const form = h(
    'form',
    { class: 'card' },
    h('h1', {}, 'Playground'),
    field('Prompt', prompt),
    h('fieldset', { class: 'kinds' }, h('legend', {}, 'Schema'), radios),
    schemaBox,
    h(
      'div',
      { class: 'row' },
      field('Model', model, 'an alias or provider/model'),
      field('maxLoops', loops),
      field('Evidence', evidenceMode),
      field('Project', project),
      h('div', { class: 'field check' }, finalTool, h('label', { for: 'final-tool' }, 'Final-tool mode')),
    ),
    h('datalist', { id: 'schema-names' }, schemas.map((s) => h('option', { value: s }))),
    h('datalist', { id: 'model-list' }, me.models.map((m) => h('option', { value: m }))),
    h('datalist', { id: 'projects-list' }, me.projects.filter((p) => p !== '*').map((p) => h('option', { value: p }))),
    run,
  );

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    Object.assign(saved, {
      prompt: prompt.value,
      kind: radios.map((r) => r.firstChild).find((r) => r.checked).value,
      inline: inline.value,
      name: name.value,
      text: text.value,
      model: model.value,
      maxLoops: loops.value,
      evidence: evidenceMode.value,
      finalTool: finalTool.checked,
      project: project.value,
    });
    let body;
    try {
      body = buildBody(saved);
    } catch (err) {
      fill(out, notice('error', `Schema (JSON): ${err.message}`));
      return;
    }
    run.disabled = true;
    fill(out, notice('info', 'Running…'));
    try {
      const r = await call('POST', 'v1/structure', { ...body, trace: true }, [200, 400, 404, 413, 422, 429, 500, 502, 503, 504]);
      await showResult(out, body, r.body, me);
    } catch (err) {
      fill(out, notice('error', err.message));
    } finally {
      run.disabled = false;
    }
  });
  fill(main, form, out);
}

function statusBadge(status) {
  return h('span', { class: `badge s-${status}` }, status);
}

function usageLine(usage, price) {
  const parts = [
    `${fmtInt(usage.inputTokens)} input`,
    `${fmtInt(usage.cachedInputTokens)} cached`,
    `${fmtInt(usage.outputTokens)} output`,
    `${fmtInt(usage.reasoningTokens)} reasoning`,
  ];
  return h('p', { class: 'usage' }, `Tokens: ${parts.join(' · ')}`, price ? ` · cost ${price}` : ' · no price configured for this model');
}

function roundView(round, index) {
  const verdict = round.verdict || 'sent';
  return h(
    'li',
    { class: 'round' },
    h(
      'h3',
      {},
      round.kind === 'nudge' ? `Nudge ${index + 1}` : `Iteration ${round.iteration}`,
      ' ',
      h('span', { class: `badge v-${verdict}` }, verdict),
      h('span', { class: 'muted' }, ` ${round.model} · ${round.mode}${round.finish ? ` · finish ${round.finish}` : ''}`),
    ),
    h('h4', {}, 'Answer'),
    codeBlock(round.answer || (round.toolCalls || []).map((t) => `${t.name}(${t.arguments})`).join('\n') || '(empty)', `answer of iteration ${round.iteration}`),
    round.issues && round.issues.length
      ? [
          h('h4', {}, 'Validator messages'),
          h('ul', { class: 'issues' }, round.issues.map((i) => h('li', {}, h('code', {}, i.pointer || '(root)'), ` ${i.keyword}: `, i.message))),
        ]
      : null,
    round.reason ? [h('h4', {}, 'Reason sent back'), codeBlock(round.reason, `reason sent after iteration ${round.iteration}`)] : null,
    h(
      'details',
      {},
      h('summary', {}, round.schema ? 'Lowered schema sent' : 'No schema sent (fallback: plain JSON, schema in the prompt)'),
      round.schema ? codeBlock(pretty(round.schema), 'lowered schema') : null,
    ),
    h('details', {}, h('summary', {}, 'System prompt'), codeBlock(round.system || '', 'system prompt')),
  );
}

async function showResult(out, body, result, me) {
  const trace = result.trace || { rounds: [] };
  const priceKey = trace.provider && trace.model ? `${trace.provider}/${trace.model}` : '';
  const price = fmtCost(cost(me.prices, priceKey, result.usage));
  let schema = body.schema;
  if (body.schemaName && result.status !== 'error') {
    const q = body.project ? `?project=${encodeURIComponent(body.project)}` : '';
    schema = await get(`v1/schemas/${encodeURIComponent(body.schemaName)}${q}`).then((s) => s.schema).catch(() => null);
  }
  const root = publicRoot();
  const shown = { ...result };
  delete shown.trace;
  const evidenceButton = result.evidence
    ? h('button', { type: 'button', class: 'secondary', onclick: () => showSingle({ prompt: body.prompt, result }) }, 'Open in the evidence view')
    : null;
  fill(
    out,
    h(
      'div',
      { class: 'card' },
      h('h2', {}, 'Result ', statusBadge(result.status), h('span', { class: 'muted' }, ` ${result.iterations ?? 0} iteration(s)${result.schemaOrigin ? ` · ${result.schemaOrigin}` : ''}${result.mode ? ` · ${result.mode}` : ''}`)),
      usageLine(result.usage || {}, price),
      result.need ? h('p', { class: 'need' }, h('strong', {}, 'Needs: '), result.need) : null,
      result.errors ? h('ul', { class: 'issues' }, result.errors.map((e) => h('li', {}, e))) : null,
      codeBlock(pretty(shown), 'result JSON'),
      evidenceButton,
    ),
    h('div', { class: 'card' }, h('h2', {}, 'Iterations'), h('ol', { class: 'rounds' }, trace.rounds.map(roundView))),
    h(
      'div',
      { class: 'card' },
      h('h2', {}, 'Copy this call'),
      h('p', { class: 'hint' }, 'The key is read from $STRUCTURE_API_KEY; it is never part of a snippet.'),
      snippetBlock('structure run', runCommand(body)),
      snippetBlock('curl', curlCommand(root, body)),
      snippetBlock('OpenAI SDK (Python)', openaiSnippet(root, body, schema, body.schemaName || 'result')),
    ),
  );
}

function snippetBlock(title, text) {
  return h('div', { class: 'snippet' }, h('h3', {}, title, ' ', copyButton(`Copy ${title}`, text)), codeBlock(text, title));
}
