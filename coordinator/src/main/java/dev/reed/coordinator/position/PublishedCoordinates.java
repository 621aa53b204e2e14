package dev.reed.coordinator.position;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.reed.coordinator.index.store.KeyedByteStore;
import dev.reed.coordinator.index.store.ChunkUsage;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.ServerCoordinate;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * What this replica last published per owned target, in columns by slot: when (ms, the clock's),
 * the landmark ids its RTTs go with (usually the round's anchor list itself, one list shared by
 * every target), and the coordinate's bytes in {@link KeyedByteStore}: the ServerCoordinate without
 * landmark_rtts, encoded, followed by the RTTs (us, 4 bytes each) in the ids' order. Read back
 * once per candidate a round.
 *
 * <p>Why columns: a replica republishes most of its targets every round; a record and an array per
 * target and round were new objects referenced from a map in the old generation, what young
 * collections spend their time on (docs/research/scale.md). Round thread only.
 */
final class PublishedCoordinates {
  private final KeyedByteStore coordinates;
  private long[] at = new long[KeyedByteStore.INITIAL_CAPACITY];
  @SuppressWarnings("unchecked")
  private List<String>[] ids = new List[KeyedByteStore.INITIAL_CAPACITY];

  PublishedCoordinates() {
    this(KeyedByteStore.CHUNK);
  }

  /** @param chunkBytes the size of a chunk of the coordinates' bytes (tests make it small) */
  PublishedCoordinates(int chunkBytes) {
    this.coordinates = new KeyedByteStore(chunkBytes, this::grow);
  }

  int size() {
    return coordinates.size();
  }

  /** The coordinates' chunks, held and live bytes. */
  ChunkUsage chunks() {
    return ChunkUsage.of(coordinates);
  }

  /** The slot of the target's publication, -1 when this replica published none: {@link #at} and {@link #coordinate} read it. */
  int slot(String key) {
    return coordinates.slot(key);
  }

  /** When the publication in slot {@code s} was made (ms). */
  long at(int s) {
    return at[s];
  }

  /** The coordinate published in slot {@code s}. */
  ServerCoordinate coordinate(int s) {
    List<String> landmarks = ids[s];
    byte[] bytes = coordinates.bytes(s);
    int from = coordinates.offset(s);
    int restLength = coordinates.length(s) - 4 * landmarks.size();
    try {
      ServerCoordinate.Builder b = ServerCoordinate.newBuilder().mergeFrom(bytes, from, restLength);
      ByteBuffer rtts = ByteBuffer.wrap(bytes, from + restLength, 4 * landmarks.size());
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
    int s = coordinates.put(key, b.array(), 0, b.capacity());
    at[s] = when;
    if (ids[s] != landmarks) ids[s] = landmarks;
  }

  /** Forgets the target's publication, if there is one. */
  void remove(String key) {
    int s = coordinates.remove(key);
    if (s >= 0) ids[s] = null;
  }

  /** Forgets the publications of the targets {@code gone} says are gone. */
  void removeIf(Predicate<String> gone) {
    for (int s = 0; s < coordinates.high(); s++) {
      String key = coordinates.key(s);
      if (key != null && gone.test(key)) remove(key);
    }
  }

  private void grow(int n) {
    at = Arrays.copyOf(at, n);
    ids = Arrays.copyOf(ids, n);
  }
}
