package dev.reed.coordinator.index;

import dev.reed.coordinates.ranking.RankingIndex;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * One state's servers, in its ranking index's order and by key: an array of the feed's {@link
 * IndexedServer}s and an open-addressing table of their positions (ints), read-only.
 *
 * <p>Why not a copy of the feed's map: a state lives until the next rebuild (about a second), so
 * it is alive at every young collection and copied by it. {@code Map.copyOf} of 250,000 servers is
 * a 4 MB table of a million references, each of which a collection visits; this is 250,000
 * references and a 2 MB int table it copies without looking inside (docs/research/scale.md,
 * ninth pass).
 */
final class ServerTable extends AbstractMap<String, IndexedServer> {
  private final IndexedServer[] byPosition;
  /** Position + 1 of the server whose key hashes here (linear probing), 0 for an empty slot. */
  private final int[] slots;
  private final int mask;

  private ServerTable(IndexedServer[] byPosition) {
    this.byPosition = byPosition;
    int capacity = Integer.highestOneBit(Math.max(2, byPosition.length) * 2 - 1) << 1; // load <= 1/2
    this.slots = new int[capacity];
    this.mask = capacity - 1;
    for (int p = 0; p < byPosition.length; p++) {
      int s = slot(byPosition[p].entry().key());
      while (slots[s] != 0) s = (s + 1) & mask;
      slots[s] = p + 1;
    }
  }

  /**
   * The servers of {@code index}, which was built from exactly the entries of {@code servers}.
   *
   * @param landmarks the size of the landmark table the servers' templates refer to
   * @throws IllegalArgumentException when the index holds a server the map does not, or a
   *     template refers to a landmark number beyond the table
   */
  static ServerTable of(RankingIndex index, Map<String, IndexedServer> servers, int landmarks) {
    if (index.size() != servers.size()) {
      throw new IllegalArgumentException("an index of " + index.size() + " servers for " + servers.size());
    }
    IndexedServer[] byPosition = new IndexedServer[index.size()];
    for (int p = 0; p < byPosition.length; p++) {
      String key = index.entry(p).key();
      byPosition[p] = servers.get(key);
      if (byPosition[p] == null) throw new IllegalArgumentException("the index holds " + key + ", the servers do not");
      ServingState.checkRefs(key, byPosition[p].maxRef(), landmarks);
    }
    return new ServerTable(byPosition);
  }

  /** The server at index position {@code p}. */
  IndexedServer at(int p) {
    return byPosition[p];
  }

  private int slot(String key) {
    int h = key.hashCode() * 0x9E3779B9; // Fibonacci hashing spreads the ip:port keys' similar hashes
    return (h ^ (h >>> 16)) & mask;
  }

  @Override
  public IndexedServer get(Object key) {
    if (!(key instanceof String k)) return null;
    for (int s = slot(k); slots[s] != 0; s = (s + 1) & mask) {
      IndexedServer server = byPosition[slots[s] - 1];
      if (server.entry().key().equals(k)) return server;
    }
    return null;
  }

  @Override
  public boolean containsKey(Object key) {
    return get(key) != null;
  }

  @Override
  public int size() {
    return byPosition.length;
  }

  @Override
  public Set<String> keySet() {
    return inOrder(p -> byPosition[p].entry().key(), this::containsKey);
  }

  @Override
  public Set<Entry<String, IndexedServer>> entrySet() {
    return inOrder(p -> Map.entry(byPosition[p].entry().key(), byPosition[p]),
        o -> o instanceof Entry<?, ?> e && e.getValue() != null && e.getValue() == get(e.getKey()));
  }

  /** A read-only set of one item per server, in the index's order. */
  private <T> Set<T> inOrder(IntFunction<T> at, Predicate<Object> contains) {
    return new AbstractSet<>() {
      @Override
      public Iterator<T> iterator() {
        return new Iterator<>() {
          private int p;

          @Override
          public boolean hasNext() {
            return p < byPosition.length;
          }

          @Override
          public T next() {
            if (p >= byPosition.length) throw new NoSuchElementException();
            return at.apply(p++);
          }
        };
      }

      @Override
      public boolean contains(Object o) {
        return contains.test(o);
      }

      @Override
      public int size() {
        return byPosition.length;
      }
    };
  }
}
