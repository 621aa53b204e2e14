package dev.reed.eval;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.calibration.CalibrationCandidate;
import dev.reed.coordinates.calibration.CalibrationSelector;
import dev.reed.coordinates.discovery.CalibrationPoint;
import dev.reed.coordinates.discovery.CalibrationSource;
import dev.reed.coordinates.discovery.PageRequest;
import dev.reed.coordinates.discovery.ProbeOrder;
import dev.reed.coordinates.discovery.RankedCandidate;
import dev.reed.coordinates.discovery.LocationFix;
import dev.reed.coordinates.geo.FusedEstimator;
import dev.reed.coordinates.geo.FusionWeights;
import dev.reed.coordinates.geo.Place;
import dev.reed.coordinates.reports.NeighbourhoodCorrections;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the coordinator answers a client, simulated over one landmark seed of a matrix: the
 * calibration points of GetCalibrationServers (Algorithm 3 spread, or nearest to a position; beacons
 * or any kind, with the same {@link CalibrationSelector} the coordinator uses) and the pages of
 * GetOrderedServers (servers by ascending coordinate distance, with their coordinates and the
 * landmarks' RTTs). Node indices are the keys; a client is never offered itself.
 *
 * <p>When the nodes are located it answers as a coordinator with a location database:
 * Locate moves the client's believed location to where its calibration RTTs place it
 * ({@link FusedEstimator#locate}) and returns the geographic predictions for its calibration points
 * and the fusion weights; a page asked with a location carries every server's geographic
 * prediction from there and is ordered by the fused prediction of the geographic and coordinate
 * sources (the relay needs the client's RTTs, which a coordinator has not got).
 *
 * <p>Once it has {@link #learned} from client reports, every page entry carries the
 * report correction for the position the page was asked from, as the coordinator serves it.
 */
final class SimulatedCoordinator {
  private final CalibrationSelector selector;
  private final List<CalibrationCandidate> beacons;
  private final List<CalibrationCandidate> calibrators;
  private final Set<String> beaconKeys = new HashSet<>();
  private final int[] servers;
  private final Coordinate[] coords;
  private final List<Map<String, Double>> landmarkMs;
  private final int pageSize;
  private final SeedRun.Located located;
  private final java.util.Map<Integer, Integer> serverIndex = new java.util.HashMap<>();
  private final java.util.Map<Integer, Integer> landmarkIndex = new java.util.HashMap<>();
  /** What the coordinator learned from client reports, null before any. */
  private volatile NeighbourhoodCorrections corrections;

  /**
   * @param beacons the landmarks' beacons (key = node index)
   * @param calibrators beacons and well-fitted servers
   * @param servers the positioned server nodes
   * @param coords every node's coordinate by index
   * @param landmarkMs every node's landmark RTTs by landmark key
   * @param located the location knowledge (its estimator's servers are {@code servers}), or null
   * @param landmarks the landmark nodes, in the estimator's landmark order
   */
  SimulatedCoordinator(CoordinateConfig config, List<CalibrationCandidate> beacons, List<CalibrationCandidate> calibrators,
      int[] servers, Coordinate[] coords, List<Map<String, Double>> landmarkMs, int pageSize, SeedRun.Located located,
      int[] landmarks) {
    this.selector = new CalibrationSelector(config);
    this.beacons = List.copyOf(beacons);
    this.calibrators = List.copyOf(calibrators);
    beacons.forEach(b -> beaconKeys.add(b.key()));
    this.servers = servers.clone();
    this.coords = coords;
    this.landmarkMs = landmarkMs;
    this.pageSize = pageSize;
    this.located = located;
    for (int j = 0; j < servers.length; j++) {
      serverIndex.put(servers[j], j);
    }
    for (int k = 0; k < landmarks.length; k++) {
      landmarkIndex.put(landmarks[k], k);
    }
  }

  /** From now on, pages carry the corrections learned from client reports. */
  void learned(NeighbourhoodCorrections learned) {
    this.corrections = learned;
  }

  /** Whether the coordinator has a location prior for this node. */
  boolean locates(int node) {
    return located != null && located.believed()[node] != null;
  }

  /** The node's location prior, or null. */
  Place believed(int node) {
    return located == null ? null : located.believed()[node];
  }

  /** One client's view; {@code rotation} is the spread set's rotation epoch. */
  Session session(int client, long rotation) {
    return new Session(client, rotation);
  }

  /** The coordinator as one client sees it. */
  final class Session implements CalibrationSource {
    private final String self;
    private final int client;
    private final long rotation;
    private final Place prior;
    private Coordinate rankedFrom;
    private Place rankedAt;
    private int[] ranked;
    private double[] rankedMs;

    private Session(int client, long rotation) {
      this.client = client;
      this.self = Integer.toString(client);
      this.rotation = rotation;
      this.prior = located == null ? null : located.believed()[client];
    }

    /** Locate with calibration RTTs: the believed location, corrected (class comment); null when unknown. */
    @Override
    public LocationFix locate(List<CalibrationPoint> probed, Map<String, Double> rttMs) {
      if (prior == null) {
        return null;
      }
      FusedEstimator estimator = located.estimator();
      double[] toLandmark = new double[landmarkIndex.size()];
      Arrays.fill(toLandmark, Double.NaN);
      for (CalibrationPoint p : probed) {
        Integer k = landmarkIndex.get(Integer.parseInt(p.key()));
        Double ms = rttMs.get(p.key());
        if (p.beacon() && k != null && ms != null) {
          toLandmark[k] = ms;
        }
      }
      Place at = estimator.locate(prior, toLandmark, located.model().locateMarginMs());
      Map<String, Double> geo = new java.util.HashMap<>();
      for (CalibrationPoint p : probed) {
        double g = geoMs(at, Integer.parseInt(p.key()));
        if (Double.isFinite(g)) {
          geo.put(p.key(), g);
        }
      }
      return new LocationFix(at, !at.equals(prior), geo, estimator.weights());
    }

    /** Whether the coordinator places this client (it has a location prior for it). */
    boolean locatesClient() {
      return prior != null;
    }

    /** The fusion weights the coordinator serves, null without locations. */
    FusionWeights fusion() {
      return located == null ? null : located.estimator().weights();
    }

    /**
     * The geographic prediction from {@code at} to node {@code v} in whole microseconds, as the API
     * carries it; NaN when unknown.
     */
    double geoMs(Place at, int v) {
      if (at == null) {
        return Double.NaN;
      }
      Integer j = serverIndex.get(v);
      Integer k = landmarkIndex.get(v);
      double ms = j != null ? located.estimator().geoMs(at, j)
          : k != null ? located.estimator().geoToLandmarkMs(at, k, located.model().excessMinLandmarks()) : Double.NaN;
      return Double.isFinite(ms) ? Math.round(ms * 1000) / 1000.0 : Double.NaN;
    }

    @Override
    public List<CalibrationPoint> local(int count) {
      if (prior == null) {
        return null;
      }
      double[] ms = new double[coords.length];
      for (int v : servers) {
        ms[v] = geoMs(prior, v);
      }
      return Arrays.stream(servers).filter(v -> v != client && Double.isFinite(ms[v])).boxed()
          .sorted(Comparator.comparingDouble((Integer v) -> ms[v]).thenComparing(v -> v)).limit(count)
          .map(v -> new CalibrationPoint(Integer.toString(v), coords[v], "")).toList();
    }

    @Override
    public List<CalibrationPoint> spread(int count, Kind kind) {
      return points(selector.select(pool(kind), count, rotation));
    }

    @Override
    public List<CalibrationPoint> nearest(Coordinate around, int count, Kind kind) {
      return points(selector.nearest(pool(kind), around, count, Set.of()));
    }

    /** One page of servers a client's list holds. */
    record Page(List<RankedCandidate> servers, String nextCursor) {}

    /** Answers the order's page request at once. */
    void serve(ProbeOrder order, PageRequest request) {
      Page page = page(request.from(), request.cursor(), request.location(), request.landmarkRttMs());
      order.pageArrived(request, page.servers(), page.nextCursor());
    }

    /**
     * GetOrderedServers: this client's servers by ascending predicted RTT from {@code from} (the
     * coordinate distance, fused with the geographic prediction from {@code at} when not null),
     * from the cursor on.
     */
    Page page(Coordinate from, String cursor, Place at) {
      return page(from, cursor, at, Map.of());
    }

    /** The same, the report corrections found by the client's calibration RTTs to the landmarks. */
    Page page(Coordinate from, String cursor, Place at, Map<String, Double> landmarkRttMs) {
      Place where = located == null ? null : at;
      if (!from.equals(rankedFrom) || !java.util.Objects.equals(where, rankedAt)) {
        rankedFrom = from;
        rankedAt = where;
        double[] ms = new double[coords.length];
        for (int v : servers) {
          double d = from.distanceTo(coords[v]);
          double g = geoMs(where, v);
          ms[v] = Double.isFinite(g) ? located.estimator().weights().predictMs(g, d, Double.NaN) : d;
        }
        rankedMs = ms;
        ranked = Arrays.stream(servers).filter(v -> v != client).boxed()
            .sorted(Comparator.comparingDouble((Integer v) -> ms[v]).thenComparing(v -> v))
            .mapToInt(Integer::intValue).toArray();
      }
      int first = cursor.isEmpty() ? 0 : Integer.parseInt(cursor);
      int to = Math.min(ranked.length, first + pageSize);
      List<RankedCandidate> page = new ArrayList<>(to - first);
      NeighbourhoodCorrections learned = corrections;
      for (int i = first; i < to; i++) {
        int v = ranked[i];
        String key = Integer.toString(v);
        page.add(new RankedCandidate(key, coords[v], rankedMs[v], landmarkMs.get(v), geoMs(where, v),
            where == null ? null : located.estimator().data().servers()[serverIndex.get(v)],
            learned == null ? 1.0 : learned.factor(from, landmarkRttMs, key, coords[v], 0)));
      }
      return new Page(page, to < ranked.length ? Integer.toString(to) : "");
    }

    private List<CalibrationCandidate> pool(Kind kind) {
      List<CalibrationCandidate> all = kind == Kind.BEACON ? beacons : calibrators;
      List<CalibrationCandidate> out = new ArrayList<>(all.size());
      for (CalibrationCandidate c : all) {
        if (!c.key().equals(self)) {
          out.add(c);
        }
      }
      return out;
    }

    private List<CalibrationPoint> points(List<CalibrationCandidate> chosen) {
      List<CalibrationPoint> out = new ArrayList<>(chosen.size());
      for (CalibrationCandidate c : chosen) {
        out.add(new CalibrationPoint(c.key(), c.coordinate(), beaconKeys.contains(c.key()) ? c.key() : ""));
      }
      return out;
    }
  }
}
