// Insights per schema, as charts: calls and results by status over time, the iterations
// histogram and its average, top re-ask reasons (by category, validator keyword and pointer),
// the need rate and most frequent needs, tokens, cost and latency percentiles, and for evidence
// the ungrounded rate by field. All-time counts come from the server's stats for this tenant;
// the details from its ring of recent calls (GET /v1/console/calls).
import { h, fill, field, select, notice, fmtInt, fmtSeconds } from '../dom.js';
import { get, cost, fmtCost } from '../api.js';
import { bars, timeline, percentile, STATUS_COLOURS } from '../charts.js';
import { fieldOf } from '../spans.js';

let chosen = '';

function top(counts, n = 8) {
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([label, value]) => ({ label, value }));
}

function count(list) {
  const m = new Map();
  for (const x of list) m.set(x, (m.get(x) || 0) + 1);
  return m;
}

function schemaView(name, totals, calls, me) {
  const results = totals.results || {};
  const all = totals.calls || 0;
  const iters = totals.iterations || {};
  const iterItems = Array.from({ length: 11 }, (_, i) => ({ label: `${i}`, value: iters[i] || 0 })).filter((x, i) => x.value > 0 || i <= 3);
  const iterCalls = iterItems.reduce((a, x) => a + x.value, 0);
  const avg = iterCalls ? iterItems.reduce((a, x) => a + Number(x.label) * x.value, 0) / iterCalls : 0;
  const reasks = Object.entries(totals.reasks || {}).filter(([, v]) => v > 0).map(([label, value]) => ({ label, value })).sort((a, b) => b.value - a.value);
  const issues = calls.flatMap((c) => c.issues || []);
  const byKeyword = top(count(issues.map((i) => i.keyword)));
  const byPointer = top(count(issues.map((i) => i.pointer || '(root)')));
  const needs = calls.filter((c) => c.need).map((c) => c.need);
  const t = totals.tokens || {};
  const latencies = calls.map((c) => c.seconds).filter((s) => typeof s === 'number').sort((a, b) => a - b);
  const costs = calls.map((c) => cost(me.prices, `${c.provider}/${c.model}`, c.usage));
  const priced = costs.filter((c) => c !== null);
  const grounded = count(calls.flatMap((c) => (c.grounded || []).map(fieldOf)));
  const ungrounded = count(calls.flatMap((c) => (c.ungrounded || []).map(fieldOf)));
  const evFields = [...new Set([...grounded.keys(), ...ungrounded.keys()])].map((f) => {
    const u = ungrounded.get(f) || 0;
    const total = u + (grounded.get(f) || 0);
    return { label: f, value: u / total, text: `${Math.round((100 * u) / total)}% of ${total}` };
  }).sort((a, b) => b.value - a.value);
  const statusSummary = Object.keys(STATUS_COLOURS).map((s) => `${s} ${calls.filter((c) => c.status === s).length}`).join(', ');
  return h(
    'div',
    { class: 'insights' },
    h('h2', {}, name, h('span', { class: 'muted' }, ` ${fmtInt(all)} calls in total · ${calls.length} in the recent window`)),
    h(
      'div',
      { class: 'charts' },
      timeline('Recent calls by status over time', calls, statusSummary),
      bars('Results by status (all calls)', Object.keys(STATUS_COLOURS).map((s) => ({ label: s, value: results[s] || 0, colour: STATUS_COLOURS[s] }))),
      bars('Iterations per call (all calls)', iterItems, { describe: `average ${avg.toFixed(2)} iterations per call` }),
      bars('Re-asks by reason (all calls)', reasks, { empty: 'No re-ask yet.' }),
      bars('Re-asks by validator keyword (recent)', byKeyword, { empty: 'No re-ask in the recent window.' }),
      bars('Re-asks by pointer (recent)', byPointer, { empty: 'No re-ask in the recent window.' }),
      bars('Most frequent needs (recent)', top(count(needs), 5), {
        empty: 'No need-more-input in the recent window.',
        describe: `need rate ${all ? ((100 * (results['need-more-input'] || 0)) / all).toFixed(1) : 0}% of all calls`,
      }),
      bars('Tokens (all calls)', [
        { label: 'input', value: t.input || 0, text: fmtInt(t.input) },
        { label: 'cached input', value: t.cachedInput || 0, text: fmtInt(t.cachedInput) },
        { label: 'cache write', value: t.cacheWrite || 0, text: fmtInt(t.cacheWrite) },
        { label: 'output', value: t.output || 0, text: fmtInt(t.output) },
        { label: 'reasoning', value: t.reasoning || 0, text: fmtInt(t.reasoning) },
      ]),
      bars('Latency percentiles (recent)', [50, 90, 99].map((p) => ({ label: `p${p}`, value: percentile(latencies, p) || 0, text: fmtSeconds(percentile(latencies, p)) })), { empty: 'No call in the recent window.' }),
      bars('Cost (recent)', priced.length ? [{ label: `${priced.length} priced calls`, value: priced.reduce((a, b) => a + b, 0), text: fmtCost(priced.reduce((a, b) => a + b, 0)) }] : [], {
        empty: 'No price is configured for these models ([server.prices]); the tokens above are the cost.',
      }),
      bars('Ungrounded rate by field (recent, evidence on)', evFields, { max: 1, empty: 'No call with evidence in the recent window.' }),
    ),
  );
}

export async function render(main, params, me) {
  const [stats, recent] = await Promise.all([get('v1/console/stats'), get('v1/console/calls?limit=1000')]);
  const names = Object.keys(stats.schemas).filter((n) => stats.schemas[n].calls > 0);
  if (params.get('schema')) chosen = params.get('schema');
  if (!names.includes(chosen)) chosen = names[0] || '';
  const picker = select(names, chosen);
  const view = h('div', { 'aria-live': 'polite' });
  const show = () => {
    chosen = picker.value;
    const calls = recent.calls.filter((c) => c.schema === chosen);
    fill(view, chosen ? schemaView(chosen, stats.schemas[chosen], calls, me) : notice('info', 'No call has been made with this key\u2019s tenant yet.'));
  };
  picker.addEventListener('change', show);
  fill(
    main,
    h('h1', {}, 'Insights'),
    h('div', { class: 'card' }, h('div', { class: 'row' }, field('Schema', picker)), h('p', { class: 'hint' }, `Recent window: the last ${fmtInt(recent.capacity)} calls this server keeps in memory.`)),
    view,
  );
  show();
}
