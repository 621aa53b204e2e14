package dev.reed.coordinator.index.read;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The index feed's servers by key, each value derived from the server's {@link DecodedServer} on
 * read: the state hands out maps of templates and of coordinates without holding a second map of
 * either. Read-only, like the state that holds it.
 */
class DerivedServerMap<V> extends AbstractMap<String, V> {
  private final Map<String, DecodedServer> servers;
  private final Function<DecodedServer, V> value;

  DerivedServerMap(Map<String, DecodedServer> servers, Function<DecodedServer, V> value) {
    this.servers = servers;
    this.value = value;
  }

  @Override
  public V get(Object key) {
    DecodedServer s = servers.get(key);
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
        Iterator<Entry<String, DecodedServer>> it = servers.entrySet().iterator();
        return new Iterator<>() {
          @Override
          public boolean hasNext() {
            return it.hasNext();
          }

          @Override
          public Entry<String, V> next() {
            Entry<String, DecodedServer> e = it.next();
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
