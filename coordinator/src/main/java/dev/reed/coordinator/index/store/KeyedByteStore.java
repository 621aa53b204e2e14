package dev.reed.coordinator.index.store;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * A slot per key, kept while the key is here, and the key's current byte string in {@link
 * ChunkArena}: the table under the index feed's servers ({@code index.write.FeedServers}) and the
 * positioning's published coordinates, whose owners keep their other columns by the same slots. A new string for a
 * key is appended and the old one released; when more than half of what the chunks hold is dead,
 * the strings of chunks less than half live are moved, so dead bytes stay bounded by the live
 * ones. Not thread-safe: one writer.
 */
public final class KeyedByteStore {
  /** Slots there is room for before the first growth: the owners' columns start this long. */
  public static final int INITIAL_CAPACITY = 16;
  /** The size of a chunk of the strings, unless a test makes it small. */
  public static final int CHUNK = 1 << 20;

  private final ChunkArena chunks;
  private final IntConsumer grown;
  private final Map<String, Integer> slots = new HashMap<>();
  private int[] free = new int[INITIAL_CAPACITY];
  private int freeCount;
  private int high;
  private String[] keys = new String[INITIAL_CAPACITY];
  private int[] chunk = new int[INITIAL_CAPACITY];
  private int[] offset = new int[INITIAL_CAPACITY];
  private int[] length = new int[INITIAL_CAPACITY];

  /**
   * @param chunkBytes the size of a chunk: {@link #CHUNK}, or small in tests
   * @param grown called with the new slot capacity before a slot beyond the old one is handed out,
   *     so the owner grows its own columns
   */
  public KeyedByteStore(int chunkBytes, IntConsumer grown) {
    this.chunks = new ChunkArena(chunkBytes);
    this.grown = grown;
  }

  /** Keys here. */
  public int size() {
    return slots.size();
  }

  /** Slots handed out so far: every slot is below this, free ones included. */
  public int high() {
    return high;
  }

  /** The slot of {@code key}, -1 for none. */
  public int slot(String key) {
    Integer s = slots.get(key);
    return s == null ? -1 : s;
  }

  /** The key in slot {@code s}, null for a free slot. */
  public String key(int s) {
    return keys[s];
  }

  /**
   * Makes {@code length} bytes of {@code src} from {@code from} the string of {@code key}.
   *
   * @return the key's slot, the one it had or a new one
   */
  public int put(String key, byte[] src, int from, int length) {
    Integer held = slots.get(key);
    int s;
    if (held == null) {
      s = freeCount > 0 ? free[--freeCount] : grow();
      slots.put(key, s);
      keys[s] = key;
    } else {
      s = held;
      chunks.release(chunk[s], this.length[s]);
    }
    long where = chunks.append(src, from, length);
    chunk[s] = (int) (where >>> 32);
    offset[s] = (int) where;
    this.length[s] = length;
    if (chunks.wantsCompaction()) compact();
    return s;
  }

  /** Removes {@code key} and its string; @return the slot it had, free now, or -1 for none. */
  public int remove(String key) {
    Integer s = slots.remove(key);
    if (s == null) return -1;
    chunks.release(chunk[s], length[s]);
    keys[s] = null;
    if (freeCount == free.length) free = Arrays.copyOf(free, freeCount * 2);
    free[freeCount++] = s;
    return s;
  }

  /** The chunk slot {@code s}'s string is in, as the writer holds it now. */
  public byte[] bytes(int s) {
    return chunks.chunk(chunk[s]);
  }

  /** The number of the chunk slot {@code s}'s string is in, in {@link #snapshot}. */
  public int chunk(int s) {
    return chunk[s];
  }

  /** Where slot {@code s}'s string starts in its chunk. */
  public int offset(int s) {
    return offset[s];
  }

  /** The length of slot {@code s}'s string. */
  public int length(int s) {
    return length[s];
  }

  /** The chunks by number, a copy: a reader that keeps it reads the strings as they are now. */
  public byte[][] snapshot() {
    return chunks.snapshot();
  }

  /** Bytes the chunks hold, dead ones included. */
  public long heldBytes() {
    return chunks.heldBytes();
  }

  /** Bytes of the strings held now, what the chunks would need without dead ones. */
  public long liveBytes() {
    return chunks.liveBytes();
  }

  private int grow() {
    if (high == keys.length) {
      int n = high * 2;
      keys = Arrays.copyOf(keys, n);
      chunk = Arrays.copyOf(chunk, n);
      offset = Arrays.copyOf(offset, n);
      length = Arrays.copyOf(length, n);
      grown.accept(n);
    }
    return high++;
  }

  /** Moves the strings out of mostly dead chunks: keys whose string stays the same keep their chunk. */
  private void compact() {
    for (int s = 0; s < high; s++) {
      if (keys[s] == null || !chunks.sparse(chunk[s])) continue;
      long where = chunks.append(chunks.chunk(chunk[s]), offset[s], length[s]);
      chunks.release(chunk[s], length[s]);
      chunk[s] = (int) (where >>> 32);
      offset[s] = (int) where;
    }
  }
}
