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
 */
final class MatrixCoordinator {
  private final CalibrationSelector selector;
  private final List<CalibrationCandidate> beacons;
  private final List<CalibrationCandidate> calibrators;
  private final Set<String> beaconKeys = new HashSet<>();
  private final int[] servers;
  private final Coordinate[] coords;
  private final List<Map<String, Double>> landmarkMs;
  private final int pageSize;

  /**
   * @param beacons the landmarks' beacons (key = node index)
   * @param calibrators beacons and well-fitted servers
   * @param servers the positioned server nodes
   * @param coords every node's coordinate by index
   * @param landmarkMs every node's landmark RTTs by landmark key
   */
  MatrixCoordinator(CoordinateConfig config, List<CalibrationCandidate> beacons, List<CalibrationCandidate> calibrators,
      int[] servers, Coordinate[] coords, List<Map<String, Double>> landmarkMs, int pageSize) {
    this.selector = new CalibrationSelector(config);
    this.beacons = List.copyOf(beacons);
    this.calibrators = List.copyOf(calibrators);
    beacons.forEach(b -> beaconKeys.add(b.key()));
    this.servers = servers.clone();
    this.coords = coords;
    this.landmarkMs = landmarkMs;
    this.pageSize = pageSize;
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
    private Coordinate rankedFrom;
    private int[] ranked;

    private Session(int client, long rotation) {
      this.client = client;
      this.self = Integer.toString(client);
      this.rotation = rotation;
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
      Page page = page(request.from(), request.cursor());
      order.pageArrived(request, page.servers(), page.nextCursor());
    }

    /** GetOrderedServers: this client's servers by ascending coordinate distance from {@code from}, from the cursor on. */
    Page page(Coordinate from, String cursor) {
      if (!from.equals(rankedFrom)) {
        rankedFrom = from;
        ranked = Arrays.stream(servers).filter(v -> v != client).boxed()
            .sorted(Comparator.comparingDouble((Integer v) -> rankedFrom.distanceTo(coords[v])).thenComparing(v -> v))
            .mapToInt(Integer::intValue).toArray();
      }
      int first = cursor.isEmpty() ? 0 : Integer.parseInt(cursor);
      int to = Math.min(ranked.length, first + pageSize);
      List<RankedCandidate> page = new ArrayList<>(to - first);
      for (int i = first; i < to; i++) {
        int v = ranked[i];
        page.add(new RankedCandidate(Integer.toString(v), coords[v], rankedFrom.distanceTo(coords[v]), landmarkMs.get(v)));
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
