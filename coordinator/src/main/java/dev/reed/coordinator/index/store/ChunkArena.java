package dev.reed.coordinator.index.store;

import java.util.Arrays;

/**
 * Byte strings kept per server and replaced every round (the feed's templates, the positioning's
 * published coordinates), appended to 1 MB chunks and never written twice: a reader that copied
 * the chunk array (a state) reads the bytes its copy saw while the writer goes on appending,
 * without a lock. A chunk is dropped once nothing in it is live any more (readers that still name
 * it keep it alive), and its number is used again. Not thread-safe: one writer.
 *
 * <p>Why chunks: a byte string in its own array was a new object per server and round, referenced
 * from tables in the old generation; those references, not the bytes, were what young collections
 * spent most of their time on (docs/research/scale.md).
 */
final class ChunkArena {
  private final int chunkBytes;
  /** A byte string at least this long gets a chunk of its own. */
  private final int ownChunk;

  private byte[][] chunks = new byte[16][];
  /** Live bytes per chunk: those appended and not yet released. */
  private int[] live = new int[16];
  /** Chunk numbers below {@link #count} that are free. */
  private int[] free = new int[16];
  private int freeCount;
  private int count;
  private int current = -1;
  private int fill;
  private long liveBytes;
  private long heldBytes;

  /** @param chunkBytes the size of a chunk (tests make it small) */
  ChunkArena(int chunkBytes) {
    this.chunkBytes = chunkBytes;
    this.ownChunk = chunkBytes / 4;
    this.fill = chunkBytes;
  }

  /**
   * Appends {@code length} bytes of {@code src} from {@code offset}.
   *
   * @return where they are: the chunk's number in the high 32 bits, the offset in it in the low
   */
  long append(byte[] src, int offset, int length) {
    int chunk;
    int at;
    if (length >= ownChunk) {
      chunk = take(new byte[length]);
      at = 0;
    } else {
      if (fill + length > chunkBytes) {
        int old = current;
        current = take(new byte[chunkBytes]);
        fill = 0;
        if (old >= 0 && live[old] == 0) drop(old);
      }
      chunk = current;
      at = fill;
      fill += length;
    }
    System.arraycopy(src, offset, chunks[chunk], at, length);
    live[chunk] += length;
    liveBytes += length;
    return (long) chunk << 32 | at;
  }

  /** The bytes appended earlier at {@code chunk} are dead: {@code length} of them. */
  void release(int chunk, int length) {
    live[chunk] -= length;
    liveBytes -= length;
    if (live[chunk] == 0 && chunk != current) drop(chunk);
  }

  /** The chunk of number {@code chunk}, as the feed holds it now. */
  byte[] chunk(int chunk) {
    return chunks[chunk];
  }

  /** The chunks by number, a copy: what a state reads its templates from. */
  byte[][] snapshot() {
    return Arrays.copyOf(chunks, count);
  }

  /** Whether chunk {@code chunk} is mostly dead bytes, and not the one being filled. */
  boolean sparse(int chunk) {
    return chunk != current && live[chunk] * 2L < chunks[chunk].length;
  }

  /** More than half of what the chunks hold is dead, beyond a few chunks' slack. */
  boolean wantsCompaction() {
    return heldBytes - liveBytes > liveBytes + 8L * chunkBytes;
  }

  /** Bytes the chunks hold, dead ones included. */
  long heldBytes() {
    return heldBytes;
  }

  /** Bytes appended and not yet released. */
  long liveBytes() {
    return liveBytes;
  }

  private int take(byte[] bytes) {
    int chunk;
    if (freeCount > 0) {
      chunk = free[--freeCount];
    } else {
      if (count == chunks.length) {
        chunks = Arrays.copyOf(chunks, count * 2);
        live = Arrays.copyOf(live, count * 2);
      }
      chunk = count++;
    }
    chunks[chunk] = bytes;
    live[chunk] = 0;
    heldBytes += bytes.length;
    return chunk;
  }

  private void drop(int chunk) {
    heldBytes -= chunks[chunk].length;
    chunks[chunk] = null; // the states that copied the array keep it while they live
    if (freeCount == free.length) free = Arrays.copyOf(free, freeCount * 2);
    free[freeCount++] = chunk;
  }
}
