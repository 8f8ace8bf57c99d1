// Overview: the log's head, append rate and commit latency (live over SSE, one sample a second),
// storage and readers, the writer's queue, events by type, and where this server's read models stand.
import { h, cards, count, fixed, bytes, table, lineChart, barChart, fill } from './view.js';

function renderOverview(body, o) {
  const slowest = o.readModels.reduce((low, model) => Math.min(low, model.position), o.head);
  const maxLag = o.readModels.reduce((high, model) => Math.max(high, model.lag), 0);
  const stalled = o.readModels.filter((model) => model.stalled).map((model) => model.projection);
  fill(body, 
    cards('The log', [
      ['Head position', count(o.head), 'head'],
      ['Appended (events/s, 10 s)', fixed(o.eventsPerSecond), 'events-per-second'],
      ['Commit latency (ms, 10 s)', o.commitLatencyMicroseconds === undefined ? '—' : fixed(o.commitLatencyMicroseconds / 1000, 2), 'commit-latency'],
      ['Writer queue (appends)', count(o.writerQueue), 'writer-queue'],
      ['Storage used', bytes(o.usedBytes), 'used-bytes'],
      ['Map size', bytes(o.mapSize), 'map-size'],
      ['Readers', o.readersInUse === undefined ? '—' : `${o.readersInUse} of ${o.maxReaders}`, 'readers'],
      ['Stalled read models', stalled.length ? stalled.join(', ') : 'none', 'stalled'],
    ]),
    h('h3', {}, 'The last minutes'),
    lineChart('Events appended per second', o.samples.map((sample) => sample.eventsPerSecond), 'events/s'),
    lineChart('Commit latency (ms)', o.samples.map((sample) => (sample.commitLatencyMicroseconds || 0) / 1000), 'ms'),
    h('h3', {}, 'Servers'),
    table('This server (each server of a PostgreSQL log shows its own read models\' position and lag)',
      [['Server'], ['Backend'], ['Started'], ['Read models at', true], ['Largest lag (events)', true], ['Appends', true], ['Refused', true]],
      [['this server', o.backend, new Date(o.serverStartedAt * 1000).toISOString().slice(0, 19) + 'Z',
        count(slowest), h('span', { 'data-field': 'max-lag' }, count(maxLag)), count(o.appends), count(o.rejected)]]),
    h('h3', {}, 'Events by type'),
    h('p', { class: 'muted' }, `Counted through position ${count(o.typesCountedThrough)} of ${count(o.head)}.`),
    barChart('Events by type', o.eventsByType.map((entry) => [entry.type, entry.count])),
    table('Events by type', [['Type'], ['Events', true]], o.eventsByType.map((entry) => [entry.type, count(entry.count)]), { id: 'events-by-type' }),
  );
  body.dataset.head = String(o.head);
}

export async function render({ api, main, signal, status, expired }) {
  const body = h('div', { id: 'overview', 'aria-live': 'off' });
  main.append(h('p', { class: 'muted' }, 'Live: one sample a second.'), body);
  renderOverview(body, await api.get('/admin/overview'));
  const follow = async () => {
    while (!signal.aborted) {
      try {
        await api.stream('/admin/overview/subscribe', signal, (message) => {
          if (message.event === 'overview') {
            renderOverview(body, JSON.parse(message.data));
            status(`Overview updated ${new Date().toISOString().slice(11, 19)} UTC`);
          }
        });
      } catch (error) {
        if (signal.aborted) return;
        if (error.status === 401) return expired();
        status(`Overview stream interrupted (${error.message}); retrying`);
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  };
  follow();
}

