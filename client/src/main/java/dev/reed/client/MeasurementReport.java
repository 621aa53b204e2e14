package dev.reed.client;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.discovery.CalibrationPoint;
import dev.reed.probe.ProbeResult;
import dev.reed.proto.Endpoints;
import dev.reed.proto.RttBound;
import dev.reed.proto.v1.ProbeStatus;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one REED discovery measured, as the client reports it to the coordinator:
 * where the client ended up, its calibration RTTs to the landmark beacons, and every game server
 * it probed (calibration servers first, then the ordered list in probe order) with the RTT
 * measured or a timeout. It holds what the client measured and nothing more: no address of the
 * client, no server info, no RTT that was not measured in this discovery.
 *
 * @param position the client's calibrated coordinate, from which the coordinator's predictions were made
 * @param landmarkRttMs the client's calibration RTT to each landmark beacon, by landmark id (ms)
 * @param servers each server probed, once, in probe order, at most {@link #MAX_SERVERS}
 * @param discoveryStart when the discovery started
 */
record MeasurementReport(Coordinate position, Map<String, Double> landmarkRttMs, List<Measured> servers,
    Instant discoveryStart) {

  /** Servers one report carries at most (the coordinator's limit): the nearest, as probing went nearest first. */
  static final int MAX_SERVERS = 512;

  /** A server probed: its RTT in ms, or a timeout (rttMs NaN). */
  record Measured(InetSocketAddress address, double rttMs) {
    boolean timedOut() {
      return Double.isNaN(rttMs);
    }
  }

  MeasurementReport {
    Objects.requireNonNull(position, "position");
    Objects.requireNonNull(discoveryStart, "discoveryStart");
    landmarkRttMs = Map.copyOf(landmarkRttMs);
    servers = List.copyOf(servers);
  }

  /**
   * The report of a REED discovery: the calibration's game servers (its beacons are landmark RTTs)
   * and every probe the ordered list sent. A probe answered by a server that did not match the
   * request's filter still measured an RTT and is reported; a probe that failed for another reason
   * (a send error) measured nothing and is left out; a calibration reused from an earlier discovery
   * ({@code positionMaxAge}) contributes its landmark RTTs but not its server RTTs, which that
   * discovery reported.
   *
   * @return the report, or null when the discovery probed no game server
   */
  static MeasurementReport of(CalibrationRun.Result cal, ProbeLoop.Outcome listed, Coordinate position, Instant start) {
    Map<String, Measured> servers = new LinkedHashMap<>();
    for (CalibrationPoint p : cal.policy().probed()) {
      ProbeResult r = cal.measured().get(p.key());
      if (!p.beacon() && r != null) {
        add(servers, r.target().address(), r);
      }
    }
    for (InetSocketAddress a : cal.serverTimeouts()) {
      servers.putIfAbsent(Endpoints.key(a), new Measured(a, Double.NaN));
    }
    for (ProbeLoop.Recorded r : listed.results()) {
      if (r.sent()) {
        add(servers, r.candidate().address(), r.measured());
      }
    }
    if (servers.isEmpty()) {
      return null;
    }
    List<Measured> kept = new ArrayList<>(servers.values());
    return new MeasurementReport(position, cal.policy().landmarkRttMs(), kept.subList(0, Math.min(MAX_SERVERS, kept.size())),
        start);
  }

  private static void add(Map<String, Measured> servers, InetSocketAddress address, ProbeResult r) {
    if (r.ok()) {
      double ms = r.rttNanos() / 1e6;
      if (ms > 0 && ms <= RttBound.MAX_MS) {
        servers.putIfAbsent(Endpoints.key(address), new Measured(address, ms));
      }
    } else if (r.status() == ProbeStatus.PROBE_STATUS_TIMEOUT) {
      servers.putIfAbsent(Endpoints.key(address), new Measured(address, Double.NaN));
    }
  }
}
