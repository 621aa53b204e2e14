package dev.reed.coordinator.index;

import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ServerCoordinate;
import java.util.List;

/**
 * A server as rankings return it (endpoint, protocol, server info, stability, fit, the landmarks'
 * RTTs to it, its coordinate), everything but the predicted RTT, built once per coordinate update
 * instead of once per query: as a message for the streaming and group calls, and pre-encoded for
 * GetOrderedServers, whose responses are assembled from these bytes (protobuf accepts fields in
 * any order and concatenated encodings of one message as the message they merge to).
 *
 * <p>The encoding is split in two so that the landmark RTTs can be sent either way without a
 * second copy of the rest: {@code common} (everything but the landmark RTTs), then {@code
 * landmarkRtts} (RankedServer.landmark_rtts, the repeated messages, ~19 bytes per landmark) or
 * {@code compactRtts} (RankedServer.landmark_refs and landmark_rtt_us, packed, ~4 bytes per
 * landmark, with refs from this replica's {@link LandmarkNumbers}).
 *
 * @param message the RankedServer without predicted_rtt_us, with landmark_rtts
 * @param refs the landmark number of {@code message.getLandmarkRtts(i)}
 * @param common the encoded RankedServer without predicted_rtt_us and without landmark RTTs
 * @param landmarkRtts the encoded landmark_rtts fields
 * @param compactRtts the encoded landmark_refs and landmark_rtt_us fields
 */
public record RankedTemplate(RankedServer message, int[] refs, byte[] common, byte[] landmarkRtts, byte[] compactRtts) {
  public RankedTemplate {
    if (refs.length != message.getLandmarkRttsCount()) {
      throw new IllegalArgumentException(refs.length + " landmark refs for " + message.getLandmarkRttsCount() + " landmark RTTs");
    }
  }

  /** Whether the host integrity check flags the server (anything but OK or unchecked). */
  public static boolean suspect(ServerCoordinate c) {
    dev.reed.proto.v1.IntegrityKind k = c.getIntegrity().getKind();
    return k == dev.reed.proto.v1.IntegrityKind.INTEGRITY_KIND_ANYCAST_OR_PROXY
        || k == dev.reed.proto.v1.IntegrityKind.INTEGRITY_KIND_INCONSISTENT;
  }

  /** The template of a coordinate, its landmarks numbered by {@code numbers}. */
  public static RankedTemplate of(ServerCoordinate c, LandmarkNumbers numbers) {
    RankedServer.Builder cb = RankedServer.newBuilder().setEndpoint(c.getEndpoint()).setProtocol(c.getProtocol())
        .setServerInfo(c.getServerInfo()).setStability(c.getStability()).setFit(c.getFit())
        .setCoordinate(c.getCoordinate());
    if (c.hasIntegrity()) cb.setIntegrity(c.getIntegrity()).setPredictedRttUnreliable(suspect(c));
    RankedServer common = cb.build();
    List<LandmarkRtt> rtts = c.getLandmarkRttsList();
    int[] refs = new int[rtts.size()];
    RankedServer.Builder compact = RankedServer.newBuilder();
    for (int i = 0; i < refs.length; i++) {
      refs[i] = numbers.number(rtts.get(i).getLandmarkId());
      compact.addLandmarkRefs(refs[i]).addLandmarkRttUs(rtts.get(i).getRttUs());
    }
    return new RankedTemplate(common.toBuilder().addAllLandmarkRtts(rtts).build(), refs, common.toByteArray(),
        RankedServer.newBuilder().addAllLandmarkRtts(rtts).build().toByteArray(), compact.build().toByteArray());
  }

  /** A server known only by its endpoint (no coordinate record): no landmark RTTs, no numbers. */
  public static RankedTemplate bare(dev.reed.proto.v1.Endpoint endpoint) {
    RankedServer m = RankedServer.newBuilder().setEndpoint(endpoint).build();
    return new RankedTemplate(m, new int[0], m.toByteArray(), new byte[0], new byte[0]);
  }

  /** The encoded length: {@code common} and the landmark RTTs in one of the forms. */
  public int length(boolean compact) {
    return common.length + (compact ? compactRtts : landmarkRtts).length;
  }

  /** The message form: with landmark_rtts, or compact (refs into this replica's table). */
  public RankedServer message(boolean compact) {
    if (!compact || refs.length == 0) return message;
    RankedServer.Builder b = message.toBuilder().clearLandmarkRtts();
    for (int i = 0; i < refs.length; i++) b.addLandmarkRefs(refs[i]).addLandmarkRttUs(message.getLandmarkRtts(i).getRttUs());
    return b.build();
  }

  /** The largest landmark number this template refers to, -1 for none. */
  public int maxRef() {
    int max = -1;
    for (int r : refs) max = Math.max(max, r);
    return max;
  }
}
