package dev.reed.coordinator.index;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The index feed's servers by key, each value derived from the server's {@link IndexedServer} on
 * read: the state hands out maps of templates and of coordinates without holding a second map of
 * either. Read-only, like the state that holds it.
 */
class ServerView<V> extends AbstractMap<String, V> {
  private final Map<String, IndexedServer> servers;
  private final Function<IndexedServer, V> value;

  ServerView(Map<String, IndexedServer> servers, Function<IndexedServer, V> value) {
    this.servers = servers;
    this.value = value;
  }

  @Override
  public V get(Object key) {
    IndexedServer s = servers.get(key);
    return s == null ? null : value.apply(s);
  }

  @Override
  public boolean containsKey(Object key) {
    return servers.containsKey(key);
  }

  @Override
  public int size() {
    return servers.size();
  }

  @Override
  public Set<String> keySet() {
    return servers.keySet();
  }

  @Override
  public Set<Entry<String, V>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Entry<String, V>> iterator() {
        Iterator<Entry<String, IndexedServer>> it = servers.entrySet().iterator();
        return new Iterator<>() {
          @Override
          public boolean hasNext() {
            return it.hasNext();
          }

          @Override
          public Entry<String, V> next() {
            Entry<String, IndexedServer> e = it.next();
            return Map.entry(e.getKey(), value.apply(e.getValue()));
          }
        };
      }

      @Override
      public int size() {
        return servers.size();
      }
    };
  }
}
