// Caches: entries, bytes, hit rate and the last invalidating commit of every query cache.
import { h, count, bytes, fixed, table } from './view.js';

export async function render({ api, main }) {
  const caches = await api.get('/admin/caches');
  main.append(table('Every query cache', [['Cache'], ['Entries', true], ['Bytes', true], ['Hits', true], ['Misses', true], ['Hit rate', true], ['Computed', true], ['Last invalidation (position)', true]],
    caches.map((cache) => [
      cache.name, h('span', { 'data-field': `entries-${cache.name}` }, count(cache.entries)), bytes(cache.bytes), count(cache.hits), count(cache.misses),
      cache.hits + cache.misses > 0 ? `${fixed((100 * cache.hits) / (cache.hits + cache.misses))} %` : '—', count(cache.computed),
      cache.lastInvalidatingPosition ? count(cache.lastInvalidatingPosition) : 'none yet']), { id: 'cache-table' }));
}
