package dev.reed.coordinator.index.read;

import dev.reed.coordinates.ranking.RankingIndex;
import dev.reed.proto.v1.IntegrityKind;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * One state's servers, in its ranking index's order and by key: the templates as columns by
 * position (where each is in the feed's template chunks, its parts' lengths, its verdict), copied
 * from the feed's servers ({@code index.write.FeedServers}) when the state was built, and an
 * open-addressing table of positions by key (ints). Read-only; a server's {@link DecodedServer} is
 * made on demand.
 *
 * <p>Why not a copy of the feed's map: a state lives until the next rebuild (about a second), so
 * it is alive at many young collections and copied by them. Primitive arrays are copied without
 * looking inside; a map of 250,000 servers is a million references a collection visits
 * (docs/research/scale.md).
 */
public final class StateServers extends AbstractMap<String, DecodedServer> {
  private static final IntegrityKind[] KINDS = IntegrityKind.values();

  private final RankingIndex index;
  private final byte[][] chunks;
  private final int[] chunk;
  private final int[] offset;
  private final int[] length;
  private final int[] commonLength;
  private final int[] compactLength;
  private final int[] maxRef;
  private final byte[] integrity;
  /** Position + 1 of the server whose key hashes here (linear probing), 0 for an empty slot. */
  private final int[] slots;
  private final int mask;

  /**
   * The columns are by index position and become this table's: the caller keeps no reference.
   *
   * @param chunks the template chunks by number, a copy of the writer's array (their bytes are never written again)
   * @param landmarks the size of the landmark table the templates refer to
   * @throws IllegalArgumentException when a template refers to a landmark number beyond the table
   */
  public StateServers(RankingIndex index, byte[][] chunks, int[] chunk, int[] offset, int[] length, int[] commonLength,
      int[] compactLength, int[] maxRef, byte[] integrity, int landmarks) {
    for (int p = 0; p < maxRef.length; p++) ServingState.checkRefs(index.key(p), maxRef[p], landmarks);
    this.index = index;
    this.chunks = chunks;
    this.chunk = chunk;
    this.offset = offset;
    this.length = length;
    this.commonLength = commonLength;
    this.compactLength = compactLength;
    this.maxRef = maxRef;
    this.integrity = integrity;
    int n = index.size();
    int capacity = Integer.highestOneBit(Math.max(2, n) * 2 - 1) << 1; // load <= 1/2
    this.slots = new int[capacity];
    this.mask = capacity - 1;
    for (int p = 0; p < n; p++) {
      int s = slot(index.key(p));
      while (slots[s] != 0) s = (s + 1) & mask;
      slots[s] = p + 1;
    }
  }

  /** The ranking index the positions are of. */
  public RankingIndex index() {
    return index;
  }

  /** The template of the server at index position {@code p}. */
  public RankedTemplate template(int p) {
    return new RankedTemplate(chunks[chunk[p]], offset[p], length[p], commonLength[p], compactLength[p], maxRef[p],
        KINDS[integrity[p]]);
  }

  /** The servers per integrity verdict, by {@link IntegrityKind#ordinal()}. */
  public long[] integrityKinds() {
    long[] out = new long[KINDS.length];
    for (byte k : integrity) out[k]++;
    return out;
  }

  /** The server at index position {@code p}. */
  public DecodedServer at(int p) {
    return new DecodedServer(template(p), index.entry(p));
  }

  private int slot(String key) {
    int h = key.hashCode() * 0x9E3779B9; // Fibonacci hashing spreads the ip:port keys' similar hashes
    return (h ^ (h >>> 16)) & mask;
  }

  @Override
  public DecodedServer get(Object key) {
    int p = position(key);
    return p < 0 ? null : at(p);
  }

  @Override
  public boolean containsKey(Object key) {
    return position(key) >= 0;
  }

  /** The index position of the server of {@code key}, -1 for none. */
  int position(Object key) {
    if (!(key instanceof String k)) return -1;
    for (int s = slot(k); slots[s] != 0; s = (s + 1) & mask) {
      if (index.key(slots[s] - 1).equals(k)) return slots[s] - 1;
    }
    return -1;
  }

  @Override
  public int size() {
    return index.size();
  }

  @Override
  public Set<String> keySet() {
    return inOrder(index::key, this::containsKey);
  }

  @Override
  public Set<Entry<String, DecodedServer>> entrySet() {
    return inOrder(p -> Map.entry(index.key(p), at(p)),
        o -> o instanceof Entry<?, ?> e && e.getValue() != null && e.getValue().equals(get(e.getKey())));
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
            return p < index.size();
          }

          @Override
          public T next() {
            if (p >= index.size()) throw new NoSuchElementException();
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
        return index.size();
      }
    };
  }
}
