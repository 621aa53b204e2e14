package dev.reed.coordinator.index.write;

import dev.reed.coordinator.index.read.DecodedServer;
import dev.reed.coordinator.index.read.RankedTemplate;
import dev.reed.coordinator.index.read.StateServers;
import dev.reed.coordinator.index.store.ChunkUsage;
import dev.reed.coordinator.index.store.KeyedByteStore;
import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.ranking.RankingIndex;
import dev.reed.coordinates.ranking.ServerAttributes;
import java.util.Arrays;

/**
 * The index feed's servers, in columns by slot: a server keeps its slot while it is in the index,
 * and a new coordinate of it is written over the old one in place (primitive stores, and its
 * template's bytes appended to chunks by {@link KeyedByteStore}).
 *
 * <p>Why columns: every replica re-reads every server's coordinate every round. Held as objects,
 * each new coordinate was five new objects referenced from the feed's map in the old generation,
 * and a young collection's time went on following such references (card scanning, ~40 % of its
 * CPU in a perf profile) more than on copying: a diagnostic feed that made nothing new per server
 * halved the pauses (docs/research/scale.md). Here a coordinate costs no object
 * that outlives the record's decoding, and the only references stored are to the key (new servers
 * only) and to attributes most servers share.
 *
 * <p>Feed thread only. A state never reads these columns: {@link #table} copies what it needs.
 */
final class FeedServers {
  private final int d;
  private final KeyedByteStore templates;
  private double[] components;
  private double[] heights = new double[KeyedByteStore.INITIAL_CAPACITY];
  private ServerAttributes[] attributes = new ServerAttributes[KeyedByteStore.INITIAL_CAPACITY];
  private int[] commonLength = new int[KeyedByteStore.INITIAL_CAPACITY];
  private int[] compactLength = new int[KeyedByteStore.INITIAL_CAPACITY];
  private int[] maxRef = new int[KeyedByteStore.INITIAL_CAPACITY];
  private byte[] integrity = new byte[KeyedByteStore.INITIAL_CAPACITY];
  /** The slots the last {@link #index} was built from, by its source numbers. */
  private int[] live = new int[0];

  FeedServers(int dimensions) {
    this(dimensions, KeyedByteStore.CHUNK);
  }

  /** @param chunkBytes the size of a template chunk (tests make it small) */
  FeedServers(int dimensions, int chunkBytes) {
    this.d = dimensions;
    this.components = new double[KeyedByteStore.INITIAL_CAPACITY * dimensions];
    this.templates = new KeyedByteStore(chunkBytes, this::grow);
  }

  int size() {
    return templates.size();
  }

  /** The key String held for {@code key}'s server, else {@code key}: a new String per record was garbage a server and round. */
  String heldKey(String key) {
    int s = templates.slot(key);
    return s < 0 ? key : templates.key(s);
  }

  /**
   * Puts a server, replacing what its key held.
   *
   * @throws IllegalArgumentException when its coordinate has other than the feed's dimension count
   */
  void put(DecodedServer server) {
    String key = server.entry().key();
    Coordinate c = server.entry().coordinate();
    if (c.dimensions() != d) {
      throw new IllegalArgumentException("coordinate of " + key + " has " + c.dimensions() + " dimensions, the index " + d);
    }
    RankedTemplate t = server.template();
    int s = templates.put(key, t.bytes(), t.offset(), t.length());
    for (int k = 0; k < d; k++) components[s * d + k] = c.component(k);
    heights[s] = c.height();
    if (attributes[s] != server.entry().attributes()) attributes[s] = server.entry().attributes(); // shared: mostly the same one
    commonLength[s] = t.commonLength();
    compactLength[s] = t.compactLength();
    maxRef[s] = t.maxRef();
    integrity[s] = (byte) t.integrity().ordinal();
  }

  /** Removes the server of {@code key}, if there is one. */
  void remove(String key) {
    int s = templates.remove(key);
    if (s >= 0) attributes[s] = null;
  }

  private void grow(int n) {
    components = Arrays.copyOf(components, n * d);
    heights = Arrays.copyOf(heights, n);
    attributes = Arrays.copyOf(attributes, n);
    commonLength = Arrays.copyOf(commonLength, n);
    compactLength = Arrays.copyOf(compactLength, n);
    maxRef = Arrays.copyOf(maxRef, n);
    integrity = Arrays.copyOf(integrity, n);
  }

  /** The template chunks' held and live bytes. */
  ChunkUsage templateChunks() {
    return ChunkUsage.of(templates);
  }

  /** A ranking index of every server; {@link #table} then gives the state's copy of the rest. */
  RankingIndex index() {
    int[] l = new int[templates.size()];
    int n = 0;
    for (int s = 0; s < templates.high(); s++) {
      if (templates.key(s) != null) l[n++] = s;
    }
    live = l;
    return RankingIndex.ofDistinct(new RankingIndex.Source() {
      @Override
      public int size() {
        return l.length;
      }

      @Override
      public int dimensions() {
        return d;
      }

      @Override
      public String key(int i) {
        return templates.key(l[i]);
      }

      @Override
      public double component(int i, int k) {
        return components[l[i] * d + k];
      }

      @Override
      public double height(int i) {
        return heights[l[i]];
      }

      @Override
      public ServerAttributes attributes(int i) {
        return attributes[l[i]];
      }
    });
  }

  /**
   * The templates of the servers of {@code index}, the last {@link #index} built, by its positions.
   *
   * @param landmarks the size of the landmark table the templates refer to
   * @throws IllegalArgumentException when a template refers to a landmark number beyond the table
   * @throws IllegalStateException when {@code index} is not the last one built, or servers changed since
   */
  StateServers table(RankingIndex index, int landmarks) {
    int n = index.size();
    if (n != live.length) throw new IllegalStateException("an index of " + n + " servers, " + live.length + " were indexed");
    int[] c = new int[n];
    int[] o = new int[n];
    int[] len = new int[n];
    int[] common = new int[n];
    int[] compact = new int[n];
    int[] refs = new int[n];
    byte[] kind = new byte[n];
    for (int p = 0; p < n; p++) {
      int s = live[index.sourceIndex(p)];
      String key = templates.key(s);
      if (key != index.key(p)) throw new IllegalStateException("servers changed since the index was built: " + index.key(p));
      c[p] = templates.chunk(s);
      o[p] = templates.offset(s);
      len[p] = templates.length(s);
      common[p] = commonLength[s];
      compact[p] = compactLength[s];
      refs[p] = maxRef[s];
      kind[p] = integrity[s];
    }
    return new StateServers(index, templates.snapshot(), c, o, len, common, compact, refs, kind, landmarks);
  }
}
