package dev.reed.coordinator.position;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.reed.coordinator.index.ByteChunks;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.ServerCoordinate;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What this replica last published per owned target, in columns by slot: when (ms, the clock's),
 * the landmark ids its RTTs go with (usually the round's anchor list itself, one list shared by
 * every target), and the coordinate's bytes in {@link ByteChunks}: the ServerCoordinate without
 * landmark_rtts, encoded, followed by the RTTs (us, 4 bytes each) in the ids' order. Read back
 * once per candidate a round.
 *
 * <p>Why columns: a replica republishes most of its targets every round; a record and an array per
 * target and round were new objects referenced from a map in the old generation, what young
 * collections spend their time on (docs/research/scale.md, items 70 and 73). Round thread only.
 */
final class PublishedCoordinates {
  private final ByteChunks chunks;
  private final Map<String, Integer> slots = new HashMap<>();
  private int[] free = new int[16];
  private int freeCount;
  private int high;
  private String[] keys = new String[16];
  private long[] at = new long[16];
  @SuppressWarnings("unchecked")
  private List<String>[] ids = new List[16];
  private int[] chunk = new int[16];
  private int[] offset = new int[16];
  private int[] length = new int[16];

  PublishedCoordinates() {
    this(ByteChunks.CHUNK);
  }

  /** @param chunkBytes the size of a chunk of the coordinates' bytes (tests make it small) */
  PublishedCoordinates(int chunkBytes) {
    this.chunks = new ByteChunks(chunkBytes);
  }

  int size() {
    return slots.size();
  }

  /** Bytes the chunks hold, dead ones included. */
  long heldBytes() {
    return chunks.heldBytes();
  }

  /** When the target's coordinate was published (ms), null when this replica published none. */
  Long at(String key) {
    Integer s = slots.get(key);
    return s == null ? null : at[s];
  }

  /** The coordinate last published for the target, null for none. */
  ServerCoordinate coordinate(String key) {
    Integer s = slots.get(key);
    if (s == null) return null;
    List<String> landmarks = ids[s];
    byte[] bytes = chunks.chunk(chunk[s]);
    int restLength = length[s] - 4 * landmarks.size();
    try {
      ServerCoordinate.Builder b = ServerCoordinate.newBuilder().mergeFrom(bytes, offset[s], restLength);
      ByteBuffer rtts = ByteBuffer.wrap(bytes, offset[s] + restLength, 4 * landmarks.size());
      for (String id : landmarks) b.addLandmarkRtts(LandmarkRtt.newBuilder().setLandmarkId(id).setRttUs(rtts.getInt()));
      return b.build();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("this replica's own published coordinate does not parse", e);
    }
  }

  /**
   * Records a publication.
   *
   * @param roundIds the round's landmark ids: kept instead of the coordinate's own list when they are the same
   * @param when when it was published (ms)
   */
  void put(String key, ServerCoordinate c, List<String> roundIds, long when) {
    List<String> landmarks = roundIds;
    boolean same = c.getLandmarkRttsCount() == roundIds.size();
    for (int i = 0; same && i < roundIds.size(); i++) same = c.getLandmarkRtts(i).getLandmarkId().equals(roundIds.get(i));
    if (!same) landmarks = c.getLandmarkRttsList().stream().map(LandmarkRtt::getLandmarkId).toList();
    byte[] rest = c.toBuilder().clearLandmarkRtts().build().toByteArray();
    ByteBuffer b = ByteBuffer.wrap(Arrays.copyOf(rest, rest.length + 4 * landmarks.size()));
    b.position(rest.length);
    for (LandmarkRtt r : c.getLandmarkRttsList()) b.putInt(r.getRttUs());
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
    long where = chunks.append(b.array(), 0, b.capacity());
    chunk[s] = (int) (where >>> 32);
    offset[s] = (int) where;
    length[s] = b.capacity();
    at[s] = when;
    if (ids[s] != landmarks) ids[s] = landmarks;
    if (chunks.wantsCompaction()) compact();
  }

  /** Forgets the target's publication, if there is one. */
  void remove(String key) {
    Integer s = slots.remove(key);
    if (s == null) return;
    chunks.release(chunk[s], length[s]);
    keys[s] = null;
    ids[s] = null;
    if (freeCount == free.length) free = Arrays.copyOf(free, freeCount * 2);
    free[freeCount++] = s;
  }

  /** Forgets the publications of the targets {@code gone} says are gone. */
  void removeIf(Predicate<String> gone) {
    for (int s = 0; s < high; s++) {
      if (keys[s] != null && gone.test(keys[s])) remove(keys[s]);
    }
  }

  private int grow() {
    if (high == keys.length) {
      int n = high * 2;
      keys = Arrays.copyOf(keys, n);
      at = Arrays.copyOf(at, n);
      ids = Arrays.copyOf(ids, n);
      chunk = Arrays.copyOf(chunk, n);
      offset = Arrays.copyOf(offset, n);
      length = Arrays.copyOf(length, n);
    }
    return high++;
  }

  /** Moves the bytes out of mostly dead chunks: targets that keep their coordinate keep their chunk. */
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
