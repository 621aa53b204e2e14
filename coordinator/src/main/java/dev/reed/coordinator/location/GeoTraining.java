package dev.reed.coordinator.location;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.geo.EstimatorModel;
import dev.reed.coordinates.geo.FusedEstimator;
import dev.reed.coordinates.geo.GeoPrior;
import dev.reed.coordinates.geo.LandmarkData;
import dev.reed.coordinates.geo.LeaveOneOutCoordinates;
import dev.reed.coordinates.geo.LightBound;
import dev.reed.coordinates.geo.Place;
import dev.reed.coordinator.location.HostLocations.Reason;
import dev.reed.coordinator.index.CoordinateCodec;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.coordinator.ingest.MeshWindows;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.Landmark;
import dev.reed.proto.v1.LandmarkCoordinate;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.LocationSource;
import dev.reed.proto.v1.Placement;
import dev.reed.proto.v1.ServerCoordinate;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Trains the fused estimator in the running coordinator, after every round and off
 * the request path: from the same window-minimum RTTs the coordinates are fitted from (the
 * landmark mesh of this replica's mesh windows; every server's {@code landmark_rtts} in the index,
 * which every replica reads in full, so replicas train alike), the landmarks' announced or looked
 * up locations and the servers' looked up ones. A round hands its data over and returns; while a
 * training runs, later rounds are skipped, never queued.
 *
 * <p>Locations a mesh or a server's RTTs contradict ({@link LightBound}) are ignored: a landmark's
 * announced location falls back to the database lookup of its beacon address, and that to none.
 */
public final class GeoTraining implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(GeoTraining.class);

  /**
   * Servers trained on at most (default): the cross-validation positions every sampled server once
   * per landmark, L x S host fits; 2,000 servers x 16 landmarks take ~1 s (coordinator README).
   */
  public static final int DEFAULT_MAX_SERVERS = 2000;

  private final HostLocations locations;
  private final EstimatorModel model;
  private final HostPositioner positioner;
  private final int dimensions;
  private final int maxServers;
  private final LightBound bound;
  private final Clock clock;
  private final AtomicReference<GeoModel> current;
  private final AtomicBoolean running = new AtomicBoolean();
  private final AtomicLong trainings = new AtomicLong();
  private final AtomicLong skipped = new AtomicLong();
  private final AtomicLong lastNanos = new AtomicLong();
  private final AtomicLong lastTrainedServers = new AtomicLong();
  private final ExecutorService executor = Executors.newSingleThreadExecutor(
      Thread.ofPlatform().name("geo-training").priority(Thread.MIN_PRIORITY).daemon().factory());
  private volatile boolean untrainableReported;

  public GeoTraining(HostLocations locations, EstimatorModel model, CoordinateConfig math, int maxServers, LightBound bound,
      Clock clock) {
    if (maxServers < 1) throw new IllegalArgumentException("maxServers must be >= 1: " + maxServers);
    this.locations = locations;
    this.model = model;
    this.positioner = new HostPositioner(math);
    this.dimensions = math.dimensions();
    this.maxServers = maxServers;
    this.bound = bound;
    this.clock = clock;
    this.current = new AtomicReference<>(new GeoModel(true, Map.of(), Map.of(), null, Map.of(), model.locateMarginMs(),
        clock.instant()));
  }

  /**
   * A training is skipped until {@link #MIN_INTERVAL} and {@link #MIN_ROUNDS} rounds have passed
   * since the last (while servers or landmarks are being added: the GROWING ones), whichever comes
   * first. A training costs about a second of CPU per 2,000 servers and the distance line and the
   * weights move slowly; short rounds (the demo's 2 s) training each time kept a core busy, and on 2
   * cores the demo's user-space latency emulation then timed out most probes. A production round
   * (5 minutes) trains every round.
   */
  static final java.time.Duration MIN_INTERVAL = java.time.Duration.ofSeconds(30);
  static final java.time.Duration MIN_INTERVAL_GROWING = java.time.Duration.ofSeconds(10);
  static final int MIN_ROUNDS = 10;
  static final int MIN_ROUNDS_GROWING = 3;
  private int roundsSince;
  private long lastShape = -1;
  private java.time.Instant lastSubmitted = java.time.Instant.EPOCH;

  /** The newest model. */
  public GeoModel current() {
    return current.get();
  }

  /** Trainings completed. */
  public long trainings() {
    return trainings.get();
  }

  /** Rounds whose data was not trained on because a training was still running. */
  public long skipped() {
    return skipped.get();
  }

  /** Duration of the last training, ns. */
  public long lastTrainingNanos() {
    return lastNanos.get();
  }

  /** Servers the last estimator was trained on (after the cap). */
  public long lastTrainedServers() {
    return lastTrainedServers.get();
  }

  /**
   * Hands a round's data over (from the round thread, which owns the mesh windows: the matrix is
   * copied there); returns at once. False when the previous training still runs.
   */
  public boolean submit(MeshWindows.Mesh mesh, ServingState state) {
    long shape = ((long) state.servers().size() << 16) ^ state.landmarks().size();
    java.time.Instant now = clock.instant();
    roundsSince++;
    boolean same = shape == lastShape;
    if (lastShape != -1 && now.isBefore(lastSubmitted.plus(same ? MIN_INTERVAL : MIN_INTERVAL_GROWING))
        && roundsSince < (same ? MIN_ROUNDS : MIN_ROUNDS_GROWING)) {
      return false; // the line and the weights move slowly; new servers are placed at the next training
    }
    if (!running.compareAndSet(false, true)) {
      skipped.incrementAndGet();
      return false;
    }
    lastShape = shape;
    lastSubmitted = now;
    roundsSince = 0;
    try {
      executor.execute(() -> {
        try {
          current.set(train(mesh, state));
        } catch (RuntimeException e) {
          log.warn("geo training failed: {}", e.toString(), e);
        } finally {
          running.set(false);
        }
      });
      return true;
    } catch (RejectedExecutionException closed) {
      running.set(false);
      return false;
    }
  }

  /** One training, on the caller's thread; also publishes nothing (see {@link #submit}). */
  public GeoModel train(MeshWindows.Mesh mesh, ServingState state) {
    long t0 = System.nanoTime();
    List<ServingState.Anchor> anchors = state.landmarkAnchors();
    int l = anchors.size();
    Map<String, Integer> column = new HashMap<>();
    for (int k = 0; k < l; k++) column.put(anchors.get(k).landmarkId(), k);
    double[][] meshMs = meshMatrix(mesh, anchors, column);

    // landmarks: the announced location wins over the database's answer for the beacon address
    Placement[] announced = new Placement[l];
    Placement[] database = new Placement[l];
    Placement[] chosen = new Placement[l];
    for (int k = 0; k < l; k++) {
      String id = anchors.get(k).landmarkId();
      Landmark a = state.announcements().get(id);
      LandmarkCoordinate lc = state.landmarks().get(id);
      String ip = lc != null && lc.hasBeacon() ? lc.getBeacon().getIp() : a != null && a.hasBeacon() ? a.getBeacon().getIp() : "";
      database[k] = ip.isEmpty() ? Placement.getDefaultInstance() : locations.database(ip);
      if (a != null && a.hasLocation()) {
        if (HostLocations.inRange(a.getLocation())) {
          locations.accepted("landmark " + id, Reason.OUT_OF_RANGE);
          announced[k] = database[k].toBuilder().setPoint(a.getLocation()).setSource(LocationSource.LOCATION_SOURCE_ANNOUNCED).build();
        } else {
          locations.ignore("landmark " + id, Reason.OUT_OF_RANGE, "announced " + a.getLocation().getLatitudeDeg() + ","
              + a.getLocation().getLongitudeDeg() + " is not a location");
        }
      }
      chosen[k] = announced[k] != null ? announced[k] : database[k];
    }
    // a contradicted announcement falls back to the database, a contradicted database answer to none
    for (int pass = 0; pass < 2; pass++) {
      boolean[] bad = bound.contradicted(places(chosen), meshMs);
      for (int k = 0; k < l; k++) {
        String subject = "landmark " + anchors.get(k).landmarkId();
        if (!bad[k]) continue;
        Placement p = chosen[k];
        locations.ignore(subject + " (" + source(p) + ")", Reason.CONTRADICTED, String.format(Locale.ROOT,
            "%.3f,%.3f is contradicted by its mesh RTTs (below the light-in-fibre floor of %s km per ms)",
            p.getPoint().getLatitudeDeg(), p.getPoint().getLongitudeDeg(), (int) LightBound.KM_PER_MS));
        chosen[k] = p.getSource() == LocationSource.LOCATION_SOURCE_ANNOUNCED && pass == 0 ? database[k] : unlocated(p);
      }
    }
    Place[] lmPlaces = places(chosen);
    for (int k = 0; k < l; k++) {
      if (lmPlaces[k] != null) locations.accepted("landmark " + anchors.get(k).landmarkId() + " (" + source(chosen[k]) + ")", Reason.CONTRADICTED);
    }

    // servers: the database's answer for the address, unless their landmark RTTs contradict it
    List<String> keys = new ArrayList<>(state.servers().keySet());
    keys.sort(null);
    int n = keys.size();
    Placement[] srvPlacement = new Placement[n];
    Place[] srvPlace = new Place[n];
    double[][] srvMs = new double[n][];
    Set<String> ips = new HashSet<>();
    for (int s = 0; s < n; s++) {
      ServerCoordinate c = state.servers().get(keys.get(s));
      String ip = c.getEndpoint().getIp();
      ips.add(ip);
      srvMs[s] = row(c, column, l);
      Placement p = locations.database(ip);
      Place at = place(p);
      if (at != null && bound.contradicted(at, lmPlaces, srvMs[s])) {
        locations.ignore("server " + keys.get(s), Reason.CONTRADICTED, String.format(Locale.ROOT,
            "%.3f,%.3f is contradicted by its landmark RTTs (anycast, or a stale database entry?)", at.lat(), at.lon()));
        p = unlocated(p);
        at = null;
      }
      srvPlacement[s] = p;
      srvPlace[s] = at;
    }
    for (int k = 0; k < l; k++) if (!database[k].equals(Placement.getDefaultInstance())) {
      LandmarkCoordinate lc = state.landmarks().get(anchors.get(k).landmarkId());
      if (lc != null && lc.hasBeacon()) ips.add(lc.getBeacon().getIp());
    }
    locations.retain(ips);

    int[] sample = sample(keys, srvPlace, srvMs);
    FusedEstimator estimator = null;
    String phases = "";
    if (sample.length > 0) {
      Place[] samplePlaces = new Place[sample.length];
      double[][] sampleMs = new double[sample.length][];
      Coordinate[] warm = new Coordinate[sample.length];
      for (int j = 0; j < sample.length; j++) {
        samplePlaces[j] = srvPlace[sample[j]];
        sampleMs[j] = srvMs[sample[j]];
        warm[j] = CoordinateCodec.fromProto(state.coordinatesOnly().get(keys.get(sample[j])).getCoordinate(), dimensions, "server");
      }
      List<Coordinate> lmCoords = anchors.stream().map(ServingState.Anchor::coordinate).toList();
      try {
        LandmarkData data = new LandmarkData(lmPlaces, meshMs, samplePlaces, sampleMs);
        long tLoo = System.nanoTime();
        double[][] loo = new LeaveOneOutCoordinates(positioner, Double.NaN).distances(lmCoords, meshMs, sampleMs, warm);
        long tFit = System.nanoTime();
        estimator = FusedEstimator.train(model, data, loo);
        phases = String.format(Locale.ROOT, " (leave-one-out fits %d ms, estimator %d ms)", (tFit - tLoo) / 1_000_000,
            (System.nanoTime() - tFit) / 1_000_000);
        untrainableReported = false;
      } catch (IllegalArgumentException tooLittle) {
        reportUntrainable(tooLittle.getMessage());
      }
    } else {
      reportUntrainable("no located server with landmark RTTs");
    }

    Map<String, HostGeo> servers = new HashMap<>();
    GeoPrior prior = estimator == null ? null : estimator.prior();
    for (int s = 0; s < n; s++) {
      double excess = prior == null ? 0 : prior.hostExcessMs(srvPlace[s], srvMs[s], model.excessMinLandmarks());
      servers.put(keys.get(s), HostGeo.of(srvPlacement[s], srvPlace[s], excess));
    }
    Map<String, HostGeo> beacons = new HashMap<>();
    Map<String, Integer> beaconLandmarks = new HashMap<>();
    for (int k = 0; k < l; k++) {
      LandmarkCoordinate lc = state.landmarks().get(anchors.get(k).landmarkId());
      if (lc == null || !lc.hasBeacon() || lc.getBeacon().getIp().isEmpty()) continue;
      double excess = prior == null ? 0 : prior.hostExcessMs(lmPlaces[k], meshMs[k], model.excessMinLandmarks());
      beacons.put(Endpoints.key(lc.getBeacon()), HostGeo.of(chosen[k], lmPlaces[k], excess));
      beaconLandmarks.put(Endpoints.key(lc.getBeacon()), k);
    }
    long nanos = System.nanoTime() - t0;
    lastNanos.set(nanos);
    lastTrainedServers.set(sample.length);
    trainings.incrementAndGet();
    long located = Arrays.stream(srvPlace).filter(p -> p != null).count();
    long lmLocated = Arrays.stream(lmPlaces).filter(p -> p != null).count();
    log.info("geo model: landmarks={} located={} | servers={} located={} trainedOn={} | {} | {} ms{}", l, lmLocated, n, located,
        sample.length, estimator == null ? "not trained" : String.format(Locale.ROOT,
            "weights geo=%.2f coordinates=%.2f relay=%.2f, cv median error geo=%.3f served=%.3f fused=%.3f",
            estimator.weights().geo(), estimator.weights().coordinate(), estimator.weights().relay(),
            estimator.errors().geo(), estimator.errors().geoAndCoordinates(), estimator.errors().fused()),
        nanos / 1_000_000, phases);
    return new GeoModel(true, servers, beacons, estimator, beaconLandmarks, model.locateMarginMs(), clock.instant());
  }

  private void reportUntrainable(String why) {
    if (!untrainableReported) {
      untrainableReported = true;
      log.info("geo model not trained yet: {} (placements are served; predictions once landmarks and servers are located)", why);
    }
  }

  /**
   * The servers trained on: located, with a landmark RTT; above the cap a deterministic sample
   * (by a hash of the key, so every replica and every round picks the same servers while they exist).
   */
  private int[] sample(List<String> keys, Place[] at, double[][] ms) {
    List<Integer> usable = new ArrayList<>();
    for (int s = 0; s < keys.size(); s++) {
      if (at[s] != null && Arrays.stream(ms[s]).anyMatch(Double::isFinite)) usable.add(s);
    }
    if (usable.size() > maxServers) {
      usable.sort(java.util.Comparator.comparingLong((Integer s) -> hash(keys.get(s))).thenComparing(keys::get));
      usable = new ArrayList<>(usable.subList(0, maxServers));
      usable.sort(null);
    }
    return usable.stream().mapToInt(Integer::intValue).toArray();
  }

  private static long hash(String key) {
    CRC32 c = new CRC32();
    c.update(key.getBytes(StandardCharsets.UTF_8));
    return c.getValue();
  }

  private static double[][] meshMatrix(MeshWindows.Mesh mesh, List<ServingState.Anchor> anchors, Map<String, Integer> column) {
    int l = anchors.size();
    double[][] m = new double[l][l];
    for (double[] r : m) Arrays.fill(r, Double.NaN);
    if (mesh == null) return m;
    List<String> ids = mesh.landmarkIds();
    for (int i = 0; i < ids.size(); i++) {
      Integer a = column.get(ids.get(i));
      if (a == null) continue;
      for (int j = 0; j < ids.size(); j++) {
        Integer b = column.get(ids.get(j));
        if (b != null && !a.equals(b)) m[a][b] = mesh.rttMs()[i][j];
      }
    }
    return m;
  }

  private static double[] row(ServerCoordinate c, Map<String, Integer> column, int l) {
    double[] r = new double[l];
    Arrays.fill(r, Double.NaN);
    for (LandmarkRtt x : c.getLandmarkRttsList()) {
      Integer k = column.get(x.getLandmarkId());
      if (k != null && x.getRttUs() > 0) r[k] = x.getRttUs() / 1000.0;
    }
    return r;
  }

  private static Place[] places(Placement[] ps) {
    Place[] out = new Place[ps.length];
    for (int i = 0; i < ps.length; i++) out[i] = place(ps[i]);
    return out;
  }

  /** The estimator's place of a placement, null when none is known. */
  static Place place(Placement p) {
    if (p.getSource() == LocationSource.LOCATION_SOURCE_UNSPECIFIED || !p.hasPoint() || !HostLocations.inRange(p.getPoint())) {
      return null;
    }
    return Place.of(p.getPoint().getLatitudeDeg(), p.getPoint().getLongitudeDeg());
  }

  /** The placement without its (ignored) location: the AS stays, the country goes with the location. */
  private static Placement unlocated(Placement p) {
    return Placement.newBuilder().setAsn(p.getAsn()).build();
  }

  private static String source(Placement p) {
    return switch (p.getSource()) {
      case LOCATION_SOURCE_ANNOUNCED -> "announced";
      case LOCATION_SOURCE_DATABASE -> "database";
      case LOCATION_SOURCE_CLIENT -> "client";
      default -> "none";
    };
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
