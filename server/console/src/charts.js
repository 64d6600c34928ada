// Charts: uPlot for the time series, plain element bars for categories (a label, a bar whose
// length is the value, the value as text), so every chart reads without the picture too.
import uPlot from 'uplot';
import { h } from './dom.js';

export const STATUS_COLOURS = {
  ok: '#1b7a3a',
  'need-more-input': '#8a5a00',
  stale: '#6b3fa0',
  error: '#b3261e',
};

// items: [{label, value, text?}]. The bar's length is value / max.
export function bars(title, items, { max, empty = 'No data yet.', describe } = {}) {
  const top = max ?? Math.max(0, ...items.map((i) => i.value));
  return h(
    'figure',
    { class: 'chart' },
    h('figcaption', {}, title),
    items.length && top > 0
      ? h(
          'ul',
          { class: 'bars' },
          items.map((i) => {
            const bar = h('span', { class: 'bar', 'aria-hidden': 'true' });
            bar.style.width = `${Math.max(1, (100 * i.value) / top)}%`;
            if (i.colour) bar.style.background = i.colour;
            return h('li', {}, h('span', { class: 'bar-label' }, i.label), h('span', { class: 'bar-track' }, bar), h('span', { class: 'bar-value' }, i.text ?? String(i.value)));
          }),
        )
      : h('p', { class: 'hint' }, empty),
    describe ? h('p', { class: 'hint' }, describe) : null,
  );
}

// Counts per time bucket of `calls` ([{atMs, status}]) for each status: a uPlot line chart.
export function timeline(title, calls, summary) {
  const fig = h('figure', { class: 'chart wide' }, h('figcaption', {}, title));
  if (!calls.length) {
    fig.appendChild(h('p', { class: 'hint' }, 'No calls in the recent window yet.'));
    return fig;
  }
  const first = Math.min(...calls.map((c) => c.atMs));
  const last = Math.max(...calls.map((c) => c.atMs));
  const steps = [1, 5, 10, 30, 60, 300, 600, 1800, 3600, 21600, 86400];
  const span = Math.max(1, (last - first) / 1000);
  const step = steps.find((s) => span / s <= 40) || 86400;
  const start = Math.floor(first / 1000 / step) * step;
  const n = Math.floor((last / 1000 - start) / step) + 1;
  const xs = Array.from({ length: n }, (_, i) => start + i * step);
  const statuses = Object.keys(STATUS_COLOURS);
  const ys = statuses.map(() => new Array(n).fill(0));
  for (const c of calls) {
    const i = Math.floor((c.atMs / 1000 - start) / step);
    const s = statuses.indexOf(c.status);
    if (s >= 0 && i >= 0 && i < n) ys[s][i]++;
  }
  const holder = h('div', { class: 'uplot-holder', role: 'img', 'aria-label': `${title}: ${summary}` });
  fig.append(holder, h('p', { class: 'hint' }, `${summary} (buckets of ${step} s)`));
  requestAnimationFrame(() => {
    const width = Math.max(300, holder.clientWidth || 600);
    // eslint-disable-next-line no-new
    new uPlot(
      {
        width,
        height: 220,
        scales: { x: { time: true } },
        axes: [{ stroke: '#333' }, { stroke: '#333', label: 'calls' }],
        series: [{}, ...statuses.map((s) => ({ label: s, stroke: STATUS_COLOURS[s], width: 2, paths: uPlot.paths.stepped({ align: 1 }), points: { show: n < 30 } }))],
      },
      [xs, ...ys],
      holder,
    );
  });
  return fig;
}

export function percentile(sorted, p) {
  if (!sorted.length) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}
