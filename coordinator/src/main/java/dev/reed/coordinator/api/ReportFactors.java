package dev.reed.coordinator.api;

import static dev.reed.coordinator.api.RequestMapping.invalid;

import com.google.protobuf.CodedOutputStream;
import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.ranking.ServerEntry;
import dev.reed.coordinates.reports.NeighbourhoodCorrections;
import dev.reed.coordinator.reports.ReportIntake;
import dev.reed.proto.RttBound;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.RankedServer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * RankedServer.report_factor for one ranking request: what the client reports from near
 * this client taught about each server, found by the client's coordinate and its landmark RTTs. A
 * factor of 1 (no report near the client) is left unset, so pages without reports are the bytes
 * they were before.
 *
 * @param query the corrections as this client sees them (its coordinate and landmark RTTs, now);
 *     one request's, not shared between threads
 */
record ReportFactors(NeighbourhoodCorrections.Query query) {
  private static final int FACTOR_TAG = (31 << 3) | 1; // RankedServer.report_factor = 31, fixed64

  /**
   * The factors of a request; null when there is nothing to look up (reporting off, or a zero-probe
   * request without a coordinate). The landmark RTTs are validated either way.
   *
   * @throws io.grpc.StatusRuntimeException INVALID_ARGUMENT for too many or out-of-range landmark RTTs
   */
  static ReportFactors of(NeighbourhoodCorrections corrections, Coordinate client, List<LandmarkRtt> landmarkRtts,
      long nowMillis) {
    if (landmarkRtts.size() > ReportIntake.MAX_LANDMARKS) {
      throw invalid("landmark_rtts: at most " + ReportIntake.MAX_LANDMARKS + ", got " + landmarkRtts.size());
    }
    Map<String, Double> ms = new HashMap<>();
    for (int i = 0; i < landmarkRtts.size(); i++) {
      LandmarkRtt l = landmarkRtts.get(i);
      long us = Integer.toUnsignedLong(l.getRttUs());
      if (us < 1 || us > RttBound.MAX_US) {
        throw invalid("landmark_rtts[" + i + "].rtt_us must be 1-" + RttBound.MAX_US + ", got " + us);
      }
      ms.merge(l.getLandmarkId(), us / 1000.0, Math::min);
    }
    if (corrections == null || client == null || corrections.servers() == 0) return null;
    return new ReportFactors(corrections.query(client, ms, nowMillis));
  }

  /** The factor for one server, 1 when none. */
  double factor(ServerEntry server) {
    return query.factor(server.key(), server.coordinate());
  }

  /** {@code extra} with report_factor appended when it is not 1. */
  byte[] append(byte[] extra, ServerEntry server) {
    double f = factor(server);
    if (f == 1.0 || !Double.isFinite(f)) return extra;
    int at = extra == null ? 0 : extra.length;
    byte[] out = Arrays.copyOf(extra == null ? new byte[0] : extra, at + 2 + 8);
    CodedOutputStream o = CodedOutputStream.newInstance(out, at, 10);
    try {
      o.writeUInt32NoTag(FACTOR_TAG);
      o.writeDoubleNoTag(f);
      o.checkNoSpaceLeft();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return out;
  }

  /** The same field on a message being built. */
  RankedServer decorate(RankedServer server, ServerEntry entry) {
    double f = factor(entry);
    return f == 1.0 || !Double.isFinite(f) ? server : server.toBuilder().setReportFactor(f).build();
  }
}
