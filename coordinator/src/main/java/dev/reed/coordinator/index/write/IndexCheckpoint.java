package dev.reed.coordinator.index.write;

import dev.reed.coordinator.index.read.DecodedServer;
import dev.reed.coordinator.index.read.RankedTemplate;
import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.ranking.ServerAttributes;
import dev.reed.coordinates.ranking.ServerEntry;
import dev.reed.proto.v1.IntegrityKind;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * A replica's local copy of its coordinate index: every server as the index holds it, the landmark
 * numbers its templates refer to and, per reed.coordinates partition, the offset the index had read
 * to. A restarted replica starts from it and reads only the topic's newer records instead of the
 * whole compacted topic, as Kafka Streams restores a state store from its local checkpoint and the
 * changelog's tail. At 250,000 servers the whole topic took 3.3 s to read and 2.4 s to decode on the
 * loaded two cores (docs/research/scale.md), most of a restart; a checkpoint of the
 * coordinate records themselves still needed the decode (3.5 s), so this one holds the
 * decoded form and is read with no parsing at all.
 *
 * <p>The file is written under a temporary name and moved into place, so a reader sees a whole
 * file or the previous one. {@link #read} fails, saying why, for a file that is truncated, fails its
 * CRC-32C, is of another format version or holds values the index would refuse; the feed then reads
 * the whole topic, exactly as without a checkpoint. Losing the file loses nothing: the topic is the
 * durable copy.
 *
 * <p>Format (big-endian, strings in modified UTF-8): {@code "REEDIDX1"}, written-at (UNIX ms),
 * dimensions, height model; partition count, then per partition its number and the next offset to
 * read; landmark count, then the landmark ids in number order; server count, then per server its
 * key, the template's common bytes, compact RTT bytes, largest landmark number and integrity kind,
 * the coordinate's other bytes, the coordinate's components and height, and the ranking attributes
 * (game, map, players, max players, password, protocol, suspect); then the CRC-32C of all before it.
 */
final class IndexCheckpoint {
  private static final byte[] MAGIC = {'R', 'E', 'E', 'D', 'I', 'D', 'X', '1'};
  /** Larger than any part of a server (the broker's default message size is 1 MB). */
  private static final int MAX_BYTES = 1 << 20;

  private final Path file;

  IndexCheckpoint(Path file) {
    this.file = file;
  }

  Path file() {
    return file;
  }

  /**
   * What a checkpoint holds.
   *
   * @param writtenAt when the index it copies was built
   * @param offsets per reed.coordinates partition, the next offset the index had not yet read
   * @param landmarkIds the templates' landmark table: {@code landmarkIds.get(n)} has number n
   * @param servers per server key, the server as the index held it
   */
  record Contents(Instant writtenAt, int dimensions, boolean heightModel, Map<Integer, Long> offsets,
      List<String> landmarkIds, Map<String, DecodedServer> servers) {}

  /** Writes a checkpoint (a temporary file, then moved over the previous one). */
  void write(Contents c) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    if (dir != null) Files.createDirectories(dir);
    Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
    try (BufferedOutputStream buffered = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
      CheckedOutputStream checked = new CheckedOutputStream(buffered, new CRC32C());
      DataOutputStream out = new DataOutputStream(checked);
      out.write(MAGIC);
      out.writeLong(c.writtenAt().toEpochMilli());
      out.writeInt(c.dimensions());
      out.writeBoolean(c.heightModel());
      out.writeInt(c.offsets().size());
      for (Map.Entry<Integer, Long> e : c.offsets().entrySet()) {
        out.writeInt(e.getKey());
        out.writeLong(e.getValue());
      }
      out.writeInt(c.landmarkIds().size());
      for (String id : c.landmarkIds()) out.writeUTF(id);
      out.writeInt(c.servers().size());
      for (Map.Entry<String, DecodedServer> e : c.servers().entrySet()) {
        DecodedServer s = e.getValue();
        out.writeUTF(e.getKey());
        RankedTemplate t = s.template();
        bytes(out, t.common());
        bytes(out, t.compactRtts());
        out.writeInt(t.maxRef());
        IntegrityKind kind = t.integrity();
        out.writeInt(kind == IntegrityKind.UNRECOGNIZED ? IntegrityKind.INTEGRITY_KIND_UNSPECIFIED_VALUE : kind.getNumber());
        bytes(out, t.rest());
        Coordinate xy = s.entry().coordinate();
        out.writeByte(xy.dimensions());
        for (double v : xy.components()) out.writeDouble(v);
        out.writeDouble(xy.height());
        ServerAttributes a = s.entry().attributes();
        out.writeUTF(a.game());
        out.writeUTF(a.map());
        out.writeInt(a.players());
        out.writeInt(a.maxPlayers());
        out.writeBoolean(a.password());
        out.writeInt(a.protocol());
        out.writeBoolean(a.suspect());
      }
      new DataOutputStream(buffered).writeLong(checked.getChecksum().getValue());
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(tmp);
      throw e;
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * Reads the checkpoint.
   *
   * @param names gives the one String the index shares per game and map name
   * @param attributes gives the one instance the index shares per set of equal attributes
   * @return its contents, or empty when there is no file
   * @throws IOException when the file is there but cannot be used (an {@link InvalidCheckpointException}
   *     says why), or cannot be read
   */
  Optional<Contents> read(UnaryOperator<String> names, UnaryOperator<ServerAttributes> attributes) throws IOException {
    BufferedInputStream buffered;
    try {
      buffered = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    try (buffered) {
      CheckedInputStream checked = new CheckedInputStream(buffered, new CRC32C());
      DataInputStream in = new DataInputStream(checked);
      byte[] magic = new byte[MAGIC.length];
      in.readFully(magic);
      if (!Arrays.equals(magic, MAGIC)) throw new InvalidCheckpointException("not an index checkpoint of this version");
      Instant writtenAt = Instant.ofEpochMilli(in.readLong());
      int dimensions = count(in.readInt(), Coordinate.MAX_DIMENSIONS, "dimensions");
      boolean height = in.readBoolean();
      int partitions = count(in.readInt(), 1 << 16, "partitions");
      Map<Integer, Long> offsets = new HashMap<>();
      for (int i = 0; i < partitions; i++) {
        int partition = in.readInt();
        long offset = in.readLong();
        if (partition < 0 || offset < 0) throw new InvalidCheckpointException("partition " + partition + " at offset " + offset);
        offsets.put(partition, offset);
      }
      List<String> landmarkIds = new ArrayList<>();
      for (int i = count(in.readInt(), 1 << 16, "landmarks"); i > 0; i--) landmarkIds.add(in.readUTF());
      int n = count(in.readInt(), Integer.MAX_VALUE - 8, "servers");
      Map<String, DecodedServer> servers = HashMap.newHashMap(Math.min(n, 1 << 22));
      for (int i = 0; i < n; i++) {
        String key = in.readUTF();
        byte[] common = bytes(in);
        byte[] compact = bytes(in);
        int maxRef = in.readInt();
        if (maxRef < -1 || maxRef >= landmarkIds.size()) {
          throw new InvalidCheckpointException(key + " refers to landmark number " + maxRef + " of " + landmarkIds.size());
        }
        IntegrityKind integrity = IntegrityKind.forNumber(in.readInt());
        if (integrity == null) throw new InvalidCheckpointException(key + ": unknown integrity kind");
        byte[] rest = bytes(in);
        double[] v = new double[in.readByte()];
        if (v.length != dimensions) throw new InvalidCheckpointException(key + " has " + v.length + " dimensions of " + dimensions);
        for (int d = 0; d < v.length; d++) v[d] = in.readDouble();
        double h = in.readDouble();
        String game = names.apply(in.readUTF());
        String map = names.apply(in.readUTF());
        try {
          ServerAttributes a = new ServerAttributes(game, map, in.readInt(), in.readInt(), in.readBoolean(), in.readInt(),
              in.readBoolean());
          servers.put(key, new DecodedServer(RankedTemplate.of(common, compact, rest, maxRef, integrity),
              new ServerEntry(key, new Coordinate(v, h), attributes.apply(a))));
        } catch (IllegalArgumentException e) {
          throw new InvalidCheckpointException(key + ": " + e.getMessage());
        }
      }
      long crc = checked.getChecksum().getValue();
      if (new DataInputStream(buffered).readLong() != crc) throw new InvalidCheckpointException("CRC-32C mismatch");
      if (buffered.read() != -1) throw new InvalidCheckpointException("bytes after the checksum");
      return Optional.of(new Contents(writtenAt, dimensions, height, Map.copyOf(offsets), List.copyOf(landmarkIds), servers));
    } catch (EOFException e) {
      throw new InvalidCheckpointException("truncated");
    }
  }

  private static void bytes(DataOutputStream out, byte[] b) throws IOException {
    out.writeInt(b.length);
    out.write(b);
  }

  private static byte[] bytes(DataInputStream in) throws IOException {
    byte[] b = new byte[count(in.readInt(), MAX_BYTES, "bytes")];
    in.readFully(b);
    return b;
  }

  private static int count(int n, int max, String what) throws InvalidCheckpointException {
    if (n < 0 || n > max) throw new InvalidCheckpointException(what + " " + n);
    return n;
  }

  /** A checkpoint file that is there but cannot be used. */
  static final class InvalidCheckpointException extends IOException {
    InvalidCheckpointException(String why) {
      super(why);
    }
  }
}
