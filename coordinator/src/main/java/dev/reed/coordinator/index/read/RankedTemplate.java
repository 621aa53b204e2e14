package dev.reed.coordinator.index.read;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ServerCoordinate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;

/**
 * A server as rankings return it (endpoint, protocol, server info, stability, fit, the landmarks'
 * RTTs to it, its coordinate), everything but the predicted RTT, encoded once per coordinate update
 * instead of once per query: GetOrderedServers responses are assembled from these bytes (protobuf
 * accepts fields in any order and concatenated encodings of one message as the message they merge
 * to), the streaming and group calls parse them back.
 *
 * <p>Only bytes, in one run of an array: every replica holds one per server of the deployment, and
 * re-reads each server's coordinate every round, so every object a server's entry is made of is one
 * more that young collections copy (docs/research/scale.md); the feed keeps the runs in
 * shared chunks ({@code index.store.ChunkArena}) and makes a template on demand. Before, each also held the
 * parsed message with its {@code LandmarkRtt} objects and a second encoding with the ids spelled
 * out; with the changes made alongside, a replica's heap at 250,000 x 30 went from
 * 5.6-6.2 KB to 1.9-2.4 KB a server (`./reed scale`, docs/research/scale.md). {@code bytes} holds
 * three encodings one after the other: the common part (everything but the landmark RTTs), the
 * compact landmark RTTs (RankedServer.landmark_refs and landmark_rtt_us, packed, refs from this
 * replica's {@link LandmarkNumbers}) and the rest (the ServerCoordinate fields a ranking does not
 * return: update time, round, placement; {@link RebuiltCoordinates} merges them back). The long
 * form, landmark_rtts with the ids, is written from the compact one and the state's landmark table
 * when a client asks for it ({@link #writeLandmarkRtts}).
 *
 * @param bytes holds from {@code offset} the encoded RankedServer without predicted_rtt_us and
 *     without landmark RTTs, then the encoded landmark_refs and landmark_rtt_us fields, then the
 *     encoded rest; nothing else of it is read (the feed keeps many templates in one array)
 * @param offset where the template starts in {@code bytes}
 * @param length the three parts' length
 * @param commonLength the first part's length
 * @param compactLength the second part's length
 * @param maxRef the largest landmark number the compact RTTs refer to, -1 for none
 * @param integrity the host integrity check's verdict, for counting flagged servers without a parse
 */
public record RankedTemplate(byte[] bytes, int offset, int length, int commonLength, int compactLength, int maxRef,
    dev.reed.proto.v1.IntegrityKind integrity) {
  private static final int LANDMARK_RTTS_TAG = (7 << 3) | 2; // RankedServer.landmark_rtts
  private static final int LANDMARK_ID_TAG = (1 << 3) | 2; // LandmarkRtt.landmark_id
  private static final int RTT_US_TAG = 2 << 3; // LandmarkRtt.rtt_us

  public RankedTemplate {
    if (offset < 0 || length < 0 || offset + length > bytes.length) {
      throw new IllegalArgumentException(length + " bytes from " + offset + " in " + bytes.length);
    }
    if (commonLength < 0 || compactLength < 0 || commonLength + compactLength > length) {
      throw new IllegalArgumentException("parts of " + commonLength + " and " + compactLength + " bytes in " + length);
    }
  }

  /** A template that is the whole of {@code bytes}. */
  public RankedTemplate(byte[] bytes, int commonLength, int compactLength, int maxRef,
      dev.reed.proto.v1.IntegrityKind integrity) {
    this(bytes, 0, bytes.length, commonLength, compactLength, maxRef, integrity);
  }

  /** A template of its three parts. */
  public static RankedTemplate of(byte[] common, byte[] compactRtts, byte[] rest, int maxRef,
      dev.reed.proto.v1.IntegrityKind integrity) {
    byte[] all = Arrays.copyOf(common, common.length + compactRtts.length + rest.length);
    System.arraycopy(compactRtts, 0, all, common.length, compactRtts.length);
    System.arraycopy(rest, 0, all, common.length + compactRtts.length, rest.length);
    return new RankedTemplate(all, common.length, compactRtts.length, maxRef, integrity);
  }

  /** Whether the host integrity check flags the server (anything but OK or unchecked). */
  public static boolean suspect(ServerCoordinate c) {
    dev.reed.proto.v1.IntegrityKind k = c.getIntegrity().getKind();
    return k != dev.reed.proto.v1.IntegrityKind.INTEGRITY_KIND_OK && k != dev.reed.proto.v1.IntegrityKind.INTEGRITY_KIND_UNSPECIFIED
        && k != dev.reed.proto.v1.IntegrityKind.UNRECOGNIZED;
  }

  /** The template of a coordinate, its landmarks numbered by {@code numbers}. */
  public static RankedTemplate of(ServerCoordinate c, LandmarkNumbers numbers) {
    // only the fields the coordinate has, so that RebuiltCoordinates can give the coordinate back as it was read
    RankedServer.Builder cb = RankedServer.newBuilder().setProtocol(c.getProtocol());
    if (c.hasEndpoint()) cb.setEndpoint(c.getEndpoint());
    if (c.hasServerInfo()) cb.setServerInfo(c.getServerInfo());
    if (c.hasStability()) cb.setStability(c.getStability());
    if (c.hasFit()) cb.setFit(c.getFit());
    if (c.hasCoordinate()) cb.setCoordinate(c.getCoordinate());
    if (c.hasIntegrity()) cb.setIntegrity(c.getIntegrity()).setPredictedRttUnreliable(suspect(c));
    List<LandmarkRtt> rtts = c.getLandmarkRttsList();
    RankedServer.Builder compact = RankedServer.newBuilder();
    int max = -1;
    for (LandmarkRtt r : rtts) {
      int ref = numbers.number(r.getLandmarkId());
      max = Math.max(max, ref);
      compact.addLandmarkRefs(ref).addLandmarkRttUs(r.getRttUs());
    }
    return of(cb.build().toByteArray(), compact.build().toByteArray(), RebuiltCoordinates.rest(c), max,
        c.getIntegrity().getKind());
  }

  /** A server known only by its endpoint (no coordinate record): no landmark RTTs, no numbers. */
  public static RankedTemplate bare(dev.reed.proto.v1.Endpoint endpoint) {
    byte[] common = RankedServer.newBuilder().setEndpoint(endpoint).build().toByteArray();
    return new RankedTemplate(common, common.length, 0, -1, dev.reed.proto.v1.IntegrityKind.INTEGRITY_KIND_UNSPECIFIED);
  }

  /** The common part: the encoded RankedServer without predicted_rtt_us and landmark RTTs (a copy). */
  public byte[] common() {
    return Arrays.copyOfRange(bytes, offset, offset + commonLength);
  }

  /** The compact landmark RTTs, encoded landmark_refs and landmark_rtt_us (a copy). */
  public byte[] compactRtts() {
    return Arrays.copyOfRange(bytes, offset + commonLength, offset + commonLength + compactLength);
  }

  /** The coordinate's fields a ranking does not return, encoded (a copy). */
  public byte[] rest() {
    return Arrays.copyOfRange(bytes, offset + commonLength + compactLength, offset + length);
  }

  /** Writes the common part. */
  public void writeCommon(CodedOutputStream o) throws IOException {
    o.writeRawBytes(bytes, offset, commonLength);
  }

  /** Writes the compact landmark RTTs. */
  public void writeCompactRtts(CodedOutputStream o) throws IOException {
    o.writeRawBytes(bytes, offset + commonLength, compactLength);
  }

  /** The common part, parsed. */
  RankedServer parseCommon() throws InvalidProtocolBufferException {
    return RankedServer.parser().parseFrom(bytes, offset, commonLength);
  }

  /** Merges the rest into {@code b}. */
  void mergeRest(dev.reed.proto.v1.ServerCoordinate.Builder b) throws InvalidProtocolBufferException {
    b.mergeFrom(bytes, offset + commonLength + compactLength, length - commonLength - compactLength);
  }

  /** The landmark numbers, in the server's landmark order. */
  public int[] refs() {
    RankedServer c = compact();
    int[] out = new int[c.getLandmarkRefsCount()];
    for (int i = 0; i < out.length; i++) out[i] = c.getLandmarkRefs(i);
    return out;
  }

  /** The compact landmark RTTs, parsed: landmark_refs and landmark_rtt_us. */
  private RankedServer compact() {
    try {
      return RankedServer.parser().parseFrom(bytes, offset + commonLength, compactLength);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a template's own compact landmark RTTs do not parse", e);
    }
  }

  /**
   * The long form's fields, one per landmark: {@code idFields[ref]} is the encoded
   * LandmarkRtt.landmark_id of landmark number ref (tag, length, UTF-8), so a page pays the ids'
   * encoding once, not per server.
   */
  public static byte[][] idFields(List<String> landmarkIds) {
    byte[][] out = new byte[landmarkIds.size()][];
    for (int i = 0; i < out.length; i++) {
      String id = landmarkIds.get(i);
      out[i] = new byte[CodedOutputStream.computeStringSize(1, id)];
      CodedOutputStream o = CodedOutputStream.newInstance(out[i]);
      try {
        o.writeString(1, id);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  /** The encoded length: {@code common} and the landmark RTTs, compact or as landmark_rtts. */
  public int length(boolean compact, byte[][] idFields) {
    return commonLength + (compact ? compactLength : landmarkRttsLength(idFields));
  }

  /** The encoded length of the long form, RankedServer.landmark_rtts with the ids. */
  public int landmarkRttsLength(byte[][] idFields) {
    if (compactLength == 0) return 0;
    RankedServer c = compact();
    int size = 0;
    for (int i = 0; i < c.getLandmarkRefsCount(); i++) {
      int entry = entryLength(idFields[c.getLandmarkRefs(i)], c.getLandmarkRttUs(i));
      size += 1 + CodedOutputStream.computeUInt32SizeNoTag(entry) + entry;
    }
    return size;
  }

  /** Writes the long form, RankedServer.landmark_rtts with the ids ({@link #idFields} of the state's table). */
  public void writeLandmarkRtts(CodedOutputStream o, byte[][] idFields) throws IOException {
    if (compactLength == 0) return;
    RankedServer c = compact();
    for (int i = 0; i < c.getLandmarkRefsCount(); i++) {
      byte[] id = idFields[c.getLandmarkRefs(i)];
      int rtt = c.getLandmarkRttUs(i);
      o.writeUInt32NoTag(LANDMARK_RTTS_TAG);
      o.writeUInt32NoTag(entryLength(id, rtt));
      o.writeRawBytes(id);
      if (rtt != 0) {
        o.writeUInt32NoTag(RTT_US_TAG);
        o.writeUInt32NoTag(rtt);
      }
    }
  }

  private static int entryLength(byte[] idField, int rttUs) {
    return idField.length + (rttUs == 0 ? 0 : 1 + CodedOutputStream.computeUInt32SizeNoTag(rttUs));
  }

  /**
   * The message form: compact (refs into this replica's table) or with landmark_rtts.
   *
   * @param landmarkIds the state's landmark table (ServingState.landmarkIds)
   */
  public RankedServer message(boolean compact, List<String> landmarkIds) {
    try {
      RankedServer.Builder b = RankedServer.newBuilder().mergeFrom(bytes, offset, commonLength + compactLength);
      if (compact || b.getLandmarkRefsCount() == 0) return b.build();
      for (int i = 0; i < b.getLandmarkRefsCount(); i++) {
        b.addLandmarkRtts(LandmarkRtt.newBuilder().setLandmarkId(landmarkIds.get(b.getLandmarkRefs(i)))
            .setRttUs(b.getLandmarkRttUs(i)));
      }
      return b.clearLandmarkRefs().clearLandmarkRttUs().build();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a template's own bytes do not parse", e);
    }
  }

  /** The server's landmark RTTs with their ids, as {@code ServerCoordinate.landmark_rtts} holds them. */
  public List<LandmarkRtt> landmarkRtts(List<String> landmarkIds) {
    RankedServer c = compact();
    LandmarkRtt[] out = new LandmarkRtt[c.getLandmarkRefsCount()];
    for (int i = 0; i < out.length; i++) {
      out[i] = LandmarkRtt.newBuilder().setLandmarkId(landmarkIds.get(c.getLandmarkRefs(i))).setRttUs(c.getLandmarkRttUs(i)).build();
    }
    return List.of(out);
  }
}
