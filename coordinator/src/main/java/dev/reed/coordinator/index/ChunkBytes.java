package dev.reed.coordinator.index;

/**
 * What a set of {@link ByteSlots} chunks holds, as its writer last saw it: every byte of the chunks
 * ({@code held}) and the bytes still live in them ({@code live}). Compaction keeps held within about
 * twice live plus a few chunks; a metric far above that means dead bytes pile up.
 */
public record ChunkBytes(long held, long live) {

  public static final ChunkBytes NONE = new ChunkBytes(0, 0);

  /** The chunks' figures now; the caller is their writer. */
  public static ChunkBytes of(ByteSlots slots) {
    return new ChunkBytes(slots.heldBytes(), slots.liveBytes());
  }
}
