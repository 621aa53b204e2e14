package dev.reed.coordinator.index.store;

/**
 * What a set of {@link KeyedByteStore} chunks holds, as its writer last saw it: every byte of the chunks
 * ({@code held}) and the bytes still live in them ({@code live}). Compaction keeps held within about
 * twice live plus a few chunks; a metric far above that means dead bytes pile up.
 */
public record ChunkUsage(long held, long live) {

  public static final ChunkUsage NONE = new ChunkUsage(0, 0);

  /** The chunks' figures now; the caller is their writer. */
  public static ChunkUsage of(KeyedByteStore slots) {
    return new ChunkUsage(slots.heldBytes(), slots.liveBytes());
  }
}
