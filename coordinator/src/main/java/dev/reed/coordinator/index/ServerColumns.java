package dev.reed.coordinator.index;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.ranking.RankingIndex;
import dev.reed.coordinates.ranking.ServerAttributes;
import dev.reed.proto.v1.IntegrityKind;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The index feed's servers, in columns by slot: a server keeps its slot while it is in the index,
 * and a new coordinate of it is written over the old one in place (primitive stores and its
 * template's bytes appended to {@link ByteChunks}).
 *
 * <p>Why columns: every replica re-reads every server's coordinate every round. Held as objects,
 * each new coordinate was five new objects referenced from the feed's map in the old generation,
 * and a young collection's time went on following such references (card scanning, ~40 % of its
 * CPU in a perf profile) more than on copying: a diagnostic feed that made nothing new per server
 * halved the pauses (docs/research/scale.md, items 68-70). Here a coordinate costs no object that
 * outlives the record's decoding, and the only references stored are to the key (new servers only)
 * and to attributes most servers share.
 *
 * <p>Feed thread only. A state never reads these columns: {@link #table} copies what it needs.
 */
final class ServerColumns {
  private static final IntegrityKind[] KINDS = IntegrityKind.values();

  private final int d;
  private final Map<String, Integer> slots = new HashMap<>();
  private int[] free = new int[16];
  private int freeCount;
  /** Slots handed out so far, free ones included. */
  private int high;
  private String[] keys = new String[16];
  private double[] components;
  private double[] heights = new double[16];
  private ServerAttributes[] attributes = new ServerAttributes[16];
  private int[] chunk = new int[16];
  private int[] offset = new int[16];
  private int[] length = new int[16];
  private int[] commonLength = new int[16];
  private int[] compactLength = new int[16];
  private int[] maxRef = new int[16];
  private byte[] integrity = new byte[16];
  private final ByteChunks chunks;
  /** The slots the last {@link #index} was built from, by its source numbers. */
  private int[] live = new int[0];

  ServerColumns(int dimensions) {
    this(dimensions, ByteChunks.CHUNK);
  }

  /** @param chunkBytes the size of a template chunk (tests make it small) */
  ServerColumns(int dimensions, int chunkBytes) {
    this.d = dimensions;
    this.components = new double[16 * dimensions];
    this.chunks = new ByteChunks(chunkBytes);
  }

  int size() {
    return slots.size();
  }

  /** The key String held for {@code key}'s server, else {@code key}: a new String per record was garbage a server and round. */
  String heldKey(String key) {
    Integer s = slots.get(key);
    return s == null ? key : keys[s];
  }

  /**
   * Puts a server, replacing what its key held.
   *
   * @throws IllegalArgumentException when its coordinate has other than the feed's dimension count
   */
  void put(IndexedServer server) {
    String key = server.entry().key();
    Coordinate c = server.entry().coordinate();
    if (c.dimensions() != d) {
      throw new IllegalArgumentException("coordinate of " + key + " has " + c.dimensions() + " dimensions, the index " + d);
    }
    Integer held = slots.get(key);
    int s;
    if (held == null) {
      s = freeCount > 0 ? free[--freeCount] : grow();
      slots.put(key, s);
      keys[s] = key;
    } else {
      s = held;
      chunks.release(chunk[s], length[s]);
    }
    for (int k = 0; k < d; k++) components[s * d + k] = c.component(k);
    heights[s] = c.height();
    if (attributes[s] != server.entry().attributes()) attributes[s] = server.entry().attributes(); // shared: mostly the same one
    RankedTemplate t = server.template();
    long at = chunks.append(t.bytes(), t.offset(), t.length());
    chunk[s] = (int) (at >>> 32);
    offset[s] = (int) at;
    length[s] = t.length();
    commonLength[s] = t.commonLength();
    compactLength[s] = t.compactLength();
    maxRef[s] = t.maxRef();
    integrity[s] = (byte) t.integrity().ordinal();
  }

  /** Removes the server of {@code key}, if there is one. */
  void remove(String key) {
    Integer s = slots.remove(key);
    if (s == null) return;
    chunks.release(chunk[s], length[s]);
    keys[s] = null;
    attributes[s] = null;
    if (freeCount == free.length) free = Arrays.copyOf(free, freeCount * 2);
    free[freeCount++] = s;
  }

  private int grow() {
    if (high == keys.length) {
      int n = high * 2;
      keys = Arrays.copyOf(keys, n);
      components = Arrays.copyOf(components, n * d);
      heights = Arrays.copyOf(heights, n);
      attributes = Arrays.copyOf(attributes, n);
      chunk = Arrays.copyOf(chunk, n);
      offset = Arrays.copyOf(offset, n);
      length = Arrays.copyOf(length, n);
      commonLength = Arrays.copyOf(commonLength, n);
      compactLength = Arrays.copyOf(compactLength, n);
      maxRef = Arrays.copyOf(maxRef, n);
      integrity = Arrays.copyOf(integrity, n);
    }
    return high++;
  }

  /**
   * Moves the templates out of mostly dead chunks when more than half of what the chunks hold is
   * dead (servers that keep their coordinate keep their chunk), so dead bytes stay bounded by the
   * live ones.
   */
  void compactTemplates() {
    if (!chunks.wantsCompaction()) return;
    for (int s = 0; s < high; s++) {
      if (keys[s] == null || !chunks.sparse(chunk[s])) continue;
      long at = chunks.append(chunks.chunk(chunk[s]), offset[s], length[s]);
      chunks.release(chunk[s], length[s]);
      chunk[s] = (int) (at >>> 32);
      offset[s] = (int) at;
    }
  }

  /** Servers per integrity verdict, by {@link IntegrityKind#ordinal()}. */
  long[] integrityKinds() {
    long[] out = new long[KINDS.length];
    for (int s = 0; s < high; s++) {
      if (keys[s] != null) out[integrity[s]]++;
    }
    return out;
  }

  /** Bytes the template chunks hold, dead ones included. */
  long templateBytes() {
    return chunks.heldBytes();
  }

  /** A ranking index of every server; {@link #table} then gives the state's copy of the rest. */
  RankingIndex index() {
    int[] l = new int[slots.size()];
    int n = 0;
    for (int s = 0; s < high; s++) {
      if (keys[s] != null) l[n++] = s;
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
        return keys[l[i]];
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
  ServerTable table(RankingIndex index, int landmarks) {
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
      if (keys[s] != index.key(p)) throw new IllegalStateException("servers changed since the index was built: " + index.key(p));
      ServingState.checkRefs(keys[s], maxRef[s], landmarks);
      c[p] = chunk[s];
      o[p] = offset[s];
      len[p] = length[s];
      common[p] = commonLength[s];
      compact[p] = compactLength[s];
      refs[p] = maxRef[s];
      kind[p] = integrity[s];
    }
    return new ServerTable(index, chunks.snapshot(), c, o, len, common, compact, refs, kind);
  }
}
