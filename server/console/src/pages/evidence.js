// Evidence view: the input with each value's quote highlighted and coloured by field. A field
// selects its span and a span its field; ungrounded values and needs are listed as such.
// Sources: the last playground call, recent calls the server kept (keep_prompts), or a batch
// results file with its inputs opened from disk (read here, nothing is uploaded).
import { h, fill, notice } from '../dom.js';
import { get } from '../api.js';
import { evidenceRows, segments, joinBatch } from '../spans.js';

const PALETTE = 8;
let single = null; // {prompt, result, label}
let batch = null; // {records, problems, name}

export function showSingle(call) {
  single = { ...call, label: 'playground call' };
  location.hash = '#/evidence?source=last';
}

function colourOf(fields, field) {
  if (!fields.has(field)) fields.set(field, fields.size % PALETTE);
  return `c${fields.get(field)}`;
}

function valueText(v) {
  if (v === undefined) return '(not in the data)';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

// Renders one record: the marked-up text and the field list, wired together.
export function recordView(prompt, result) {
  if (typeof prompt !== 'string') {
    return notice('error', 'This record has no input text: open the inputs file the batch read as well.');
  }
  const rows = evidenceRows(prompt, result);
  const fields = new Map();
  for (const r of rows) colourOf(fields, r.field);
  const marks = [];
  const buttons = new Map();
  const text = h('div', { class: 'evidence-text', 'aria-label': 'Input text with quotes highlighted' });
  for (const seg of segments(prompt, rows)) {
    if (!seg.pointers.length) {
      text.appendChild(document.createTextNode(seg.text));
      continue;
    }
    const first = rows.find((r) => r.pointer === seg.pointers[0]);
    const m = h(
      'mark',
      {
        class: `span ${colourOf(fields, first.field)}`,
        tabindex: '0',
        role: 'button',
        'aria-label': `${seg.text} (quote for ${seg.pointers.join(', ')})`,
        dataset: { ptrs: JSON.stringify(seg.pointers) },
      },
      seg.text,
    );
    marks.push(m);
    text.appendChild(m);
  }
  const select = (pointer, from) => {
    for (const m of marks) m.classList.toggle('active', JSON.parse(m.dataset.ptrs).includes(pointer));
    for (const [p, b] of buttons) b.setAttribute('aria-pressed', String(p === pointer));
    if (from === 'field') {
      const m = marks.find((x) => x.classList.contains('active'));
      if (m) m.scrollIntoView({ block: 'nearest' });
    } else if (buttons.get(pointer)) {
      buttons.get(pointer).focus();
    }
  };
  for (const m of marks) {
    const go = () => select(JSON.parse(m.dataset.ptrs)[0], 'span');
    m.addEventListener('click', go);
    m.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        go();
      }
    });
  }
  const list = h(
    'ul',
    { class: 'fields' },
    rows.map((r) => {
      const b = h(
        'button',
        {
          type: 'button',
          class: `field-button ${r.grounded ? colourOf(fields, r.field) : 'ungrounded'}`,
          'aria-pressed': 'false',
          dataset: r.grounded ? { pointer: r.pointer, quote: r.quote, match: r.match, cpStart: r.cpStart, cpEnd: r.cpEnd } : { pointer: r.pointer },
        },
        h('code', {}, r.pointer || '(root)'),
        ' ',
        valueText(r.value),
      );
      b.addEventListener('click', () => select(r.pointer, 'field'));
      buttons.set(r.pointer, b);
      return h(
        'li',
        {},
        b,
        r.grounded
          ? h('span', { class: 'muted' }, ` ${r.kind} · ${r.match} · code points ${r.cpStart}..${r.cpEnd}`)
          : h('span', { class: 'flag' }, ' ungrounded: no passage of the input states it'),
      );
    }),
  );
  return h(
    'div',
    { class: 'evidence' },
    h(
      'p',
      {},
      h('span', { class: `badge s-${result.status}` }, result.status),
      ` ${rows.filter((r) => r.grounded).length} grounded, ${rows.filter((r) => !r.grounded).length} ungrounded`,
    ),
    result.need ? h('p', { class: 'need' }, h('strong', {}, 'Needs more input: '), result.need) : null,
    !result.evidence && !result.ungrounded ? notice('info', 'This call ran without evidence (evidence: off).') : null,
    h('div', { class: 'evidence-grid' }, text, h('div', {}, h('h3', {}, 'Fields'), list)),
  );
}

async function readFile(input) {
  const f = input.files && input.files[0];
  return f ? { name: f.name, text: await f.text() } : null;
}

function batchPanel(view) {
  const results = h('input', { type: 'file', id: 'results-file', accept: '.jsonl,.json,.txt' });
  const inputs = h('input', { type: 'file', id: 'inputs-file', accept: '.jsonl,.json,.txt' });
  const open = h('button', { type: 'button' }, 'Open');
  open.addEventListener('click', async () => {
    const r = await readFile(results);
    if (!r) return fill(view, notice('error', 'Choose a results file first.'));
    const i = await readFile(inputs);
    batch = { ...joinBatch(r.text, i && i.text), name: r.name };
    showBatch(view, 0);
  });
  return h(
    'div',
    { class: 'card' },
    h('h2', {}, 'Open a batch from this computer'),
    h('p', { class: 'hint' }, 'The files are read by this page; nothing is uploaded.'),
    h('div', { class: 'row' },
      h('div', { class: 'field' }, h('label', { for: 'results-file' }, 'Results JSONL (structure batch -o)'), results),
      h('div', { class: 'field' }, h('label', { for: 'inputs-file' }, 'Inputs JSONL (the prompts)'), inputs),
      open),
  );
}

function showBatch(view, index) {
  const { records, problems, name } = batch;
  if (!records.length) return fill(view, notice('error', `${name}: no records`), problems.map((p) => notice('error', p)));
  const items = records.map((rec, i) =>
    h(
      'li',
      {},
      h(
        'button',
        { type: 'button', class: 'link', 'aria-current': i === index ? 'true' : false, onclick: () => showBatch(view, i) },
        `${rec.label} · ${rec.result.status}${rec.result.ungrounded && rec.result.ungrounded.length ? ` · ${rec.result.ungrounded.length} ungrounded` : ''}`,
      ),
    ),
  );
  const rec = records[index];
  fill(
    view,
    problems.map((p) => notice('error', p)),
    h('div', { class: 'batch-grid' },
      h('nav', { 'aria-label': 'Records', class: 'records' }, h('h3', {}, `${name} (${records.length})`), h('ul', {}, items)),
      h('div', { class: 'card' }, h('h2', {}, `Record ${rec.label}`), recordView(rec.prompt, rec.result))),
  );
}

async function recentPanel(view, me) {
  if (!me.keepPrompts) {
    return h('p', { class: 'hint' }, 'Recent calls of this server can be shown here when it keeps prompts ([server] keep_prompts = true).');
  }
  const list = await get('v1/console/calls?evidence=1&limit=50').catch(() => ({ calls: [] }));
  if (!list.calls.length) return h('p', { class: 'hint' }, 'No recent call with evidence yet.');
  return h(
    'div',
    { class: 'card' },
    h('h2', {}, 'Recent calls with evidence'),
    h(
      'ul',
      { class: 'recent' },
      list.calls.map((c) =>
        h('li', {}, h('button', {
          type: 'button',
          class: 'link',
          onclick: async () => {
            const full = await get(`v1/console/calls/${c.id}`);
            fill(view, h('div', { class: 'card' }, h('h2', {}, `Call ${c.id} · ${c.schema}`), recordView(full.prompt, full.result)));
          },
        }, `#${c.id} ${c.schema} · ${c.status} · ${(c.ungrounded || []).length} ungrounded`)),
      ),
    ),
  );
}

export async function render(main, params, me) {
  const view = h('section', { class: 'evidence-view', 'aria-live': 'polite', 'aria-label': 'Evidence' });
  fill(main, h('h1', {}, 'Evidence'), batchPanel(view), await recentPanel(view, me), view);
  if (params.get('source') === 'last' && single) {
    fill(view, h('div', { class: 'card' }, h('h2', {}, single.label), recordView(single.prompt, single.result)));
  } else if (batch) {
    showBatch(view, 0);
  }
}
