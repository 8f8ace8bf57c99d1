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
    table(o.backend === 'postgres'
      ? 'Every server following the PostgreSQL log (announced in the last 30 s): where its read models stand, and which delivers webhooks'
      : 'This server (an embedded store has one)',
      [['Server'], ['Answers at'], ['Started'], ['Head seen', true], ['Read models at', true], ['Lag (events)', true], ['Last heard (s)', true], ['Webhooks']],
      o.servers.map((server) => [
        server.thisServer ? `${server.name} (this one)` : server.name,
        /^https?:\/\//.test(server.url) ? h('a', { href: server.url + '/console/' }, server.url) : (server.url || '—'),
        new Date(server.startedAt * 1000).toISOString().slice(0, 19) + 'Z',
        count(server.head), count(server.readThrough),
        h('span', { 'data-field': server.thisServer ? 'max-lag' : 'server-lag' }, count(server.lag)),
        fixed(server.silentSeconds, 1),
        server.deliversWebhooks ? 'delivers' : 'stands by',
      ]), { id: 'servers' }),
    h('p', { class: 'muted' }, `This server: ${count(o.appends)} appends, ${count(o.rejected)} refused since it started; its slowest read model ${count(maxLag)} events behind, at ${count(slowest)}.`),
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

