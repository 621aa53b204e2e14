package dev.reed.client;

import dev.reed.proto.RttBound;
import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.MoreExecutors;
import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.discovery.CalibrationPoint;
import dev.reed.coordinates.discovery.LocationFix;
import dev.reed.coordinates.discovery.PageRequest;
import dev.reed.coordinates.geo.FusionWeights;
import dev.reed.coordinates.geo.Place;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.CalibrationKind;
import dev.reed.proto.v1.CalibrationMeasurement;
import dev.reed.proto.v1.CalibrationServer;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.GeoPoint;
import dev.reed.proto.v1.GetCalibrationServersRequest;
import dev.reed.proto.v1.GetCalibrationServersResponse;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.GetOrderedServersResponse;
import dev.reed.proto.v1.GroupRankedServer;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.ReportMeasurementsRequest;
import dev.reed.proto.v1.ReportMeasurementsResponse;
import dev.reed.proto.v1.ServerMeasurement;
import dev.reed.proto.v1.LocateRequest;
import dev.reed.proto.v1.LocateResponse;
import dev.reed.proto.v1.LocationSource;
import dev.reed.proto.v1.PasswordFilter;
import dev.reed.proto.v1.RankForGroupRequest;
import dev.reed.proto.v1.RankForGroupResponse;
import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.proto.v1.ServerFilter;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's ReedService as this client uses it: every call carries a deadline, every
 * failure becomes a {@link ReedClientException} that names the coordinator and the call, and
 * every reply is checked before use (a coordinate of the wrong dimension or with NaN, an
 * endpoint that is not a literal address, an unknown protocol). Invalid entries in a list are
 * dropped and counted; a reply with nothing usable is an error.
 */
final class CoordinatorClient implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CoordinatorClient.class);

  /** Calibration servers and the deployment's geometry. */
  record CalibrationSet(int dimensions, boolean heightModel, List<CalibrationTarget> servers, int dropped) {}

  /** A calibration server with its coordinate; {@code landmarkId} is the landmark behind a beacon, empty for a game server. */
  record CalibrationTarget(Candidate candidate, Coordinate coordinate, String landmarkId) {
    /** As the discovery policy sees it. */
    CalibrationPoint point() {
      return new CalibrationPoint(candidate.key(), coordinate, landmarkId);
    }
  }

  /** One page of the ordered list. */
  record Page(List<Candidate> servers, String nextToken, int totalMatching, int dropped) {}

  /** A measured RTT to a server the coordinator knows. */
  record Measurement(InetSocketAddress address, double rttMs) {}

  private final ManagedChannel channel;
  private final String target;
  private final Duration deadline;
  private final boolean ownsChannel;
  private final GeoPoint statedLocation;
  private int dimensions; // learned from GetCalibrationServers; 0 = not yet known
  private volatile boolean locatesClient; // the last GetCalibrationServers answer placed the client

  /**
   * @param statedLocation a coarse location the client states (sent with every request that takes
   *     one), or null to let the coordinator locate the client's address
   */
  CoordinatorClient(ManagedChannel channel, String target, Duration deadline, boolean ownsChannel, Place statedLocation) {
    this(channel, target, deadline, ownsChannel, statedLocation, SuspectServers.DEMOTE);
  }

  /** @param suspects what the coordinator does with servers its integrity check flags */
  CoordinatorClient(ManagedChannel channel, String target, Duration deadline, boolean ownsChannel, Place statedLocation,
      SuspectServers suspects) {
    this.suspects = suspects;
    this.channel = channel;
    this.target = target;
    this.deadline = deadline;
    this.ownsChannel = ownsChannel;
    this.statedLocation = statedLocation == null ? null : point(statedLocation);
  }

  private final SuspectServers suspects;

  private static GeoPoint point(Place p) {
    return GeoPoint.newBuilder().setLatitudeDeg(p.lat()).setLongitudeDeg(p.lon()).build();
  }

  String target() {
    return target;
  }

  private ReedServiceGrpc.ReedServiceBlockingStub blocking() {
    return ReedServiceGrpc.newBlockingStub(channel).withDeadlineAfter(deadline.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Algorithm 3: the calibration servers to probe, spread over the space. */
  CalibrationSet calibrationServers(int count) {
    CheckedSet set = calibrationSet(GetCalibrationServersRequest.newBuilder().setCount(count).build());
    int dims = set.dimensions();
    List<CalibrationTarget> servers = set.servers();
    int dropped = set.dropped();
    if (servers.size() < dims + 1 && dropped == 0) {
      throw new ReedClientException(ReedClientException.Kind.CALIBRATION_FAILED, "coordinator " + target + " offers "
          + servers.size() + " calibration servers; positioning in " + dims + " dimensions needs at least " + (dims + 1)
          + " (are its landmark agents running and measured?)");
    }
    if (servers.size() < dims + 1) {
      throw bad("GetCalibrationServers", servers.size() + " usable calibration servers (" + dropped
          + " invalid" + (set.firstProblem() == null ? "" : ", e.g. " + set.firstProblem()) + "), positioning in " + dims
          + " dimensions needs at least " + (dims + 1));
    }
    return set.set();
  }

  /**
   * Algorithm 3 over the landmark beacons only (GetCalibrationServers with {@code kind}): the
   * client's RTTs to them are what it compares with the landmarks' RTTs to each server. May be
   * fewer than asked, even none.
   */
  CalibrationSet beaconCalibrationServers(int count) {
    return calibrationSet(GetCalibrationServersRequest.newBuilder().setCount(count)
        .setKind(CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON).build()).set();
  }

  /**
   * The second calibration phase: the calibration servers of this kind (UNSPECIFIED = any) nearest
   * to a rough position, nearest first (GetCalibrationServers with {@code near}); may be fewer than
   * asked, even none.
   */
  CalibrationSet nearestCalibrationServers(int count, Coordinate near, CalibrationKind kind) {
    return calibrationSet(GetCalibrationServersRequest.newBuilder().setCount(count).setNear(proto(near)).setKind(kind)
        .build()).set();
  }

  private record CheckedSet(CalibrationSet set, String firstProblem) {
    int dimensions() {
      return set.dimensions();
    }

    List<CalibrationTarget> servers() {
      return set.servers();
    }

    int dropped() {
      return set.dropped();
    }
  }

  private CheckedSet calibrationSet(GetCalibrationServersRequest request) {
    GetCalibrationServersRequest req = statedLocation == null ? request : request.toBuilder().setLocation(statedLocation).build();
    GetCalibrationServersResponse r = call("GetCalibrationServers", () -> blocking().getCalibrationServers(req));
    locatesClient = r.hasClientPlacement() && r.hasFusion();
    int dims = r.getDimensions();
    if (dims < 1 || dims > Coordinate.MAX_DIMENSIONS) {
      throw bad("GetCalibrationServers", "dimensions " + dims + " (expected 1-" + Coordinate.MAX_DIMENSIONS + ")");
    }
    dimensions = dims;
    List<CalibrationTarget> servers = new ArrayList<>();
    int dropped = 0;
    String firstProblem = null;
    for (CalibrationServer s : r.getServersList()) {
      try {
        Candidate c = new Candidate(Endpoints.toSocketAddress(s.getEndpoint()), probeable(s.getProtocol()), Double.NaN);
        servers.add(new CalibrationTarget(c, coordinate(s.getCoordinate(), dims), s.getLandmarkId()));
      } catch (IllegalArgumentException e) {
        if (dropped++ == 0) firstProblem = text(s.getEndpoint()) + ": " + e.getMessage();
      }
    }
    if (dropped > 0 && servers.size() >= dims + 1) {
      log.warn("coordinator {}: dropped {} of {} calibration servers, e.g. {}", target, dropped, r.getServersCount(), firstProblem);
    }
    return new CheckedSet(new CalibrationSet(dims, r.getHeightModel(), List.copyOf(servers), dropped), firstProblem);
  }

  /** The deployment's dimension count (asks GetCalibrationServers once if not yet known). */
  int dimensions() {
    if (dimensions == 0) {
      GetCalibrationServersResponse r = call("GetCalibrationServers",
          () -> blocking().getCalibrationServers(GetCalibrationServersRequest.getDefaultInstance()));
      if (r.getDimensions() < 1 || r.getDimensions() > Coordinate.MAX_DIMENSIONS) {
        throw bad("GetCalibrationServers", "dimensions " + r.getDimensions() + " (expected 1-" + Coordinate.MAX_DIMENSIONS + ")");
      }
      dimensions = r.getDimensions();
    }
    return dimensions;
  }

  /** Positions the client on the coordinator from its measurements. */
  ClientPosition locate(List<Measurement> measurements) {
    LocateResponse r = locateCall(measurements);
    return position(r);
  }

  /**
   * Where the coordinator places the client given its calibration RTTs (the location
   * prior, corrected), or null when the coordinator did not place it in calibration, has no place
   * for it now, or its answer is unusable (logged; the client then orders by coordinates alone).
   *
   * @param keys the calibration point key of each measurement, in order
   */
  LocationFix locationFix(List<Measurement> measurements, List<String> keys) {
    if (!locatesClient) {
      return null;
    }
    LocateResponse r;
    try {
      r = locateCall(measurements);
    } catch (ReedClientException e) {
      log.warn("coordinator {}: no location fix, ordering by coordinates alone: {}", target, e.getMessage());
      return null;
    }
    if (!r.hasPlacement() || !r.hasFusion()) {
      return null;
    }
    try {
      GeoPoint at = r.getPlacement().getPoint();
      FusionWeights w = new FusionWeights(r.getFusion().getGeo(), r.getFusion().getCoordinates(), r.getFusion().getRelay());
      Map<String, Double> geo = new HashMap<>();
      for (int i = 0; i < Math.min(keys.size(), r.getGeoPredictedRttUsCount()); i++) {
        long us = Integer.toUnsignedLong(r.getGeoPredictedRttUs(i));
        if (us > 0 && us <= RttBound.MAX_US) {
          geo.put(keys.get(i), us / 1000.0);
        }
      }
      return new LocationFix(Place.of(at.getLatitudeDeg(), at.getLongitudeDeg()),
          r.getPlacement().getSource() == LocationSource.LOCATION_SOURCE_MEASURED, geo, w);
    } catch (IllegalArgumentException e) {
      log.warn("coordinator {}: unusable location fix ({}), ordering by coordinates alone", target, e.getMessage());
      return null;
    }
  }

  private LocateResponse locateCall(List<Measurement> measurements) {
    LocateRequest.Builder req = LocateRequest.newBuilder();
    if (statedLocation != null) {
      req.setLocation(statedLocation);
    }
    for (Measurement m : measurements) {
      int us = (int) Math.round(m.rttMs() * 1000);
      req.addMeasurements(CalibrationMeasurement.newBuilder()
          .setEndpoint(Endpoints.of(m.address())).setRttUs(Math.max(1, Math.min(RttBound.MAX_US, us))));
    }
    return call("Locate", () -> blocking().locate(req.build()));
  }

  private ClientPosition position(LocateResponse r) {
    try {
      Coordinate c = coordinate(r.getCoordinate(), dimensions);
      double err = r.getFit().getRelativeError();
      return new ClientPosition(c, Double.isFinite(err) ? err : Double.NaN, r.getFit().getLandmarksUsed(),
          ClientPosition.Source.LOCATE_RPC);
    } catch (IllegalArgumentException e) {
      throw bad("Locate", e.getMessage());
    }
  }

  /** Algorithm 4: one page of servers in ascending predicted RTT. */
  Page orderedPage(PageRequest request, Filter filter, int pageSize) {
    GetOrderedServersResponse r = call("GetOrderedServers", () -> blocking().getOrderedServers(pageRequest(request, filter, pageSize)));
    return page(r);
  }

  /**
   * A zero-probe ranking: one page of servers by the geographic prediction from the
   * client's location alone (stated, or its address); INVALID_ARGUMENT when the coordinator cannot
   * place the client.
   */
  List<PredictedServer> locationPage(Filter filter, int pageSize) {
    GetOrderedServersResponse r = zeroProbePage(filter, pageSize);
    List<PredictedServer> out = new ArrayList<>(r.getServersCount());
    int dropped = 0;
    for (RankedServer s : r.getServersList()) {
      try {
        long unc = Integer.toUnsignedLong(s.getUncertaintyUs());
        out.add(new PredictedServer(Endpoints.toSocketAddress(s.getEndpoint()), probeable(s.getProtocol()),
            Integer.toUnsignedLong(s.getPredictedRttUs()) / 1000.0, unc == 0 ? Double.NaN : unc / 1000.0,
            s.getPlacement().getCountry()));
      } catch (IllegalArgumentException e) {
        dropped++;
      }
    }
    if (dropped > 0) {
      log.warn("coordinator {}: dropped {} of {} servers of a zero-probe ranking", target, dropped, r.getServersCount());
    }
    return out;
  }

  /**
   * The first {@code count} servers of the zero-probe ranking that have a coordinate, as calibration
   * servers: the servers the client would probe first anyway, so that each reply is a discovery
   * and a calibration point. Empty when the last GetCalibrationServers answer did not place the
   * client or the coordinator cannot place it now (logged): the policy then calibrates from beacons.
   */
  List<CalibrationTarget> localCalibrationServers(int count) {
    if (!locatesClient) {
      return List.of();
    }
    GetOrderedServersResponse r;
    try {
      r = zeroProbePage(Filter.none(), count);
    } catch (ReedClientException e) {
      log.warn("coordinator {}: no zero-probe ranking to calibrate from, calibrating from beacons: {}", target, e.getMessage());
      return List.of();
    }
    List<CalibrationTarget> out = new ArrayList<>(r.getServersCount());
    for (RankedServer s : r.getServersList()) {
      try {
        if (s.hasCoordinate() && !s.getPredictedRttUnreliable()) {
          Candidate c = new Candidate(Endpoints.toSocketAddress(s.getEndpoint()), probeable(s.getProtocol()), Double.NaN);
          out.add(new CalibrationTarget(c, coordinate(s.getCoordinate(), dimensions()), ""));
        }
      } catch (IllegalArgumentException e) {
        log.debug("zero-probe server {} is no calibration point: {}", text(s.getEndpoint()), e.getMessage());
      }
    }
    return out;
  }

  private GetOrderedServersResponse zeroProbePage(Filter filter, int pageSize) {
    GetOrderedServersRequest.Builder req = GetOrderedServersRequest.newBuilder().setFilter(filter(filter, suspects))
        .setPageSize(pageSize);
    if (statedLocation != null) {
      req.setLocation(statedLocation);
    }
    return call("GetOrderedServers", () -> blocking().getOrderedServers(req.build()));
  }

  /** {@link #orderedPage} without blocking the caller; the future fails with a ReedClientException. */
  CompletableFuture<Page> orderedPageAsync(PageRequest request, Filter filter, int pageSize) {
    return async("GetOrderedServers", ReedServiceGrpc.newFutureStub(channel)
        .withDeadlineAfter(deadline.toNanos(), TimeUnit.NANOSECONDS).getOrderedServers(pageRequest(request, filter, pageSize)),
        this::page);
  }

  /**
   * A future call as a CompletableFuture of its converted answer; a failure of the call or the
   * conversion fails it with a ReedClientException naming the RPC.
   */
  private <T, R> CompletableFuture<R> async(String rpc, com.google.common.util.concurrent.ListenableFuture<T> call,
      java.util.function.Function<T, R> convert) {
    CompletableFuture<R> out = new CompletableFuture<>();
    Futures.addCallback(call, new FutureCallback<>() {
      @Override
      public void onSuccess(T r) {
        try {
          out.complete(convert.apply(r));
        } catch (RuntimeException e) {
          out.completeExceptionally(e);
        }
      }

      @Override
      public void onFailure(Throwable t) {
        out.completeExceptionally(t instanceof StatusRuntimeException s ? failure(rpc, s)
            : new ReedClientException(ReedClientException.Kind.COORDINATOR_BAD_RESPONSE,
                "coordinator " + target + " " + rpc + " failed: " + t, t));
      }
    }, MoreExecutors.directExecutor());
    return out;
  }

  /** Ranks servers for a group of players. */
  GroupRanking rankForGroup(List<GroupMember> members, GroupObjective objective, double ceilingMs, Filter filter,
      int pageSize, String token) {
    RankForGroupRequest.Builder req = RankForGroupRequest.newBuilder()
        .setObjective(objective == GroupObjective.MIN_MAX ? dev.reed.proto.v1.GroupObjective.GROUP_OBJECTIVE_MIN_MAX
            : dev.reed.proto.v1.GroupObjective.GROUP_OBJECTIVE_MEAN_UNDER_CEILING)
        .setMemberRttCeilingUs(micros(ceilingMs)).setFilter(filter(filter, suspects)).setPageSize(pageSize)
        .setPageToken(token == null ? "" : token);
    for (GroupMember m : members) {
      req.addMembers(dev.reed.proto.v1.GroupMember.newBuilder().setMemberId(m.id()).setCoordinate(proto(m.coordinate())));
    }
    RankForGroupResponse r = call("RankForGroup", () -> blocking().rankForGroup(req.build()));
    List<GroupServer> out = new ArrayList<>();
    int dropped = 0;
    String firstProblem = null;
    for (GroupRankedServer g : r.getServersList()) {
      RankedServer s = g.getServer();
      try {
        if (g.getMemberPredictedRttUsCount() != members.size()) {
          throw new IllegalArgumentException(g.getMemberPredictedRttUsCount() + " member predictions for " + members.size() + " members");
        }
        List<Double> perMember = g.getMemberPredictedRttUsList().stream().map(us -> us / 1000.0).toList();
        out.add(new GroupServer(Endpoints.toSocketAddress(s.getEndpoint()), probeable(s.getProtocol()),
            s.getPredictedRttUs() / 1000.0, perMember, s.getServerInfo()));
      } catch (IllegalArgumentException e) {
        if (dropped++ == 0) firstProblem = text(s.getEndpoint()) + ": " + e.getMessage();
      }
    }
    if (dropped > 0 && out.isEmpty()) throw bad("RankForGroup", "all " + dropped + " servers invalid, e.g. " + firstProblem);
    if (dropped > 0) log.warn("coordinator {}: dropped {} invalid group-ranked servers, e.g. {}", target, dropped, firstProblem);
    return new GroupRanking(members, out, r.getNextPageToken());
  }

  /** The policy's page request: from its position, at the place it trusts, or asking for coordinates alone. */
  private GetOrderedServersRequest pageRequest(PageRequest request, Filter filter, int pageSize) {
    GetOrderedServersRequest.Builder b = GetOrderedServersRequest.newBuilder().setClient(proto(request.from()))
        .setFilter(filter(filter, suspects)).setPageSize(pageSize).setPageToken(request.cursor());
    if (request.location() != null) {
      b.setLocation(point(request.location()));
    } else if (statedLocation != null) {
      b.setLocation(statedLocation);
    }
    landmarkRtts(request.landmarkRttMs(), b::addLandmarkRtts);
    // a coordinator that predates the compact form ignores the flag and sends landmark_rtts
    return b.setIgnoreLocation(request.locationDistrusted()).setCompactLandmarkRtts(true).build();
  }

  /**
   * The client's calibration RTTs to the landmark beacons as the coordinator takes them: microseconds
   * within 1 us and the RTT bound, sorted by landmark id, at most {@link #MAX_LANDMARK_RTTS}.
   */
  private static void landmarkRtts(Map<String, Double> ms, java.util.function.Consumer<LandmarkRtt> add) {
    ms.entrySet().stream().filter(e -> !e.getKey().isEmpty() && Double.isFinite(e.getValue()) && e.getValue() > 0)
        .sorted(Map.Entry.comparingByKey()).limit(MAX_LANDMARK_RTTS)
        .forEach(e -> add.accept(LandmarkRtt.newBuilder().setLandmarkId(e.getKey())
            .setRttUs((int) Math.max(1, Math.min(RttBound.MAX_US, Math.round(e.getValue() * 1000)))).build()));
  }

  /** Landmark RTTs a request carries at most (the coordinator's limit). */
  static final int MAX_LANDMARK_RTTS = 64;

  /**
   * The landmarks' RTTs to a server: the compact form (landmark_refs and landmark_rtt_us, resolved
   * through the page's landmark_ids) when the coordinator sent it, else landmark_rtts (a coordinator
   * that predates the compact form). Refs outside the table or arrays of different lengths are not
   * what a coordinator sends (IllegalArgumentException: the server is dropped as invalid).
   */
  static List<LandmarkRtt> landmarkRtts(RankedServer s, List<String> landmarkIds) {
    int n = s.getLandmarkRefsCount();
    if (n == 0 && s.getLandmarkRttUsCount() == 0) {
      return s.getLandmarkRttsList();
    }
    if (s.getLandmarkRttUsCount() != n) {
      throw new IllegalArgumentException(n + " landmark refs for " + s.getLandmarkRttUsCount() + " landmark RTTs");
    }
    List<LandmarkRtt> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      long ref = Integer.toUnsignedLong(s.getLandmarkRefs(i));
      if (ref >= landmarkIds.size()) {
        throw new IllegalArgumentException("landmark ref " + ref + " outside the page's table of " + landmarkIds.size());
      }
      out.add(LandmarkRtt.newBuilder().setLandmarkId(landmarkIds.get((int) ref)).setRttUs(s.getLandmarkRttUs(i)).build());
    }
    return out;
  }

  /**
   * The factor reports from near the client put on the coordinate prediction: unset (0) is 1; a
   * factor outside 1/100..100 or not finite is not one a coordinator serves (IllegalArgumentException:
   * the server is dropped as invalid).
   */
  static double reportFactor(RankedServer s) {
    double f = s.getReportFactor();
    if (f == 0) {
      return 1.0;
    }
    if (!(f >= 0.01 && f <= 100)) {
      throw new IllegalArgumentException("report factor " + f + " (expected 0.01-100, 0 = none)");
    }
    return f;
  }

  /**
   * Reports what one discovery measured (ReportMeasurements) without blocking the caller;
   * the future fails with a ReedClientException.
   */
  CompletableFuture<ReportMeasurementsResponse> reportAsync(MeasurementReport report) {
    ReportMeasurementsRequest.Builder req = ReportMeasurementsRequest.newBuilder().setClient(proto(report.position()));
    if (statedLocation != null) {
      req.setLocation(statedLocation); // the prior the player stated; never a place derived from its address
    }
    landmarkRtts(report.landmarkRttMs(), req::addLandmarkRtts);
    for (MeasurementReport.Measured m : report.servers()) {
      ServerMeasurement.Builder sm = ServerMeasurement.newBuilder().setEndpoint(Endpoints.of(m.address()));
      if (m.timedOut()) {
        sm.setTimedOut(true);
      } else {
        sm.setRttUs((int) Math.max(1, Math.min(RttBound.MAX_US, Math.round(m.rttMs() * 1000))));
      }
      req.addServers(sm);
    }
    req.setDiscoveryStartTime(com.google.protobuf.Timestamp.newBuilder().setSeconds(report.discoveryStart().getEpochSecond())
        .setNanos(report.discoveryStart().getNano()));
    return async("ReportMeasurements", ReedServiceGrpc.newFutureStub(channel)
        .withDeadlineAfter(deadline.toNanos(), TimeUnit.NANOSECONDS).reportMeasurements(req.build()), r -> r);
  }

  private Page page(GetOrderedServersResponse r) {
    List<Candidate> servers = new ArrayList<>(r.getServersCount());
    int dropped = 0;
    String firstProblem = null;
    for (RankedServer s : r.getServersList()) {
      try {
        long geoUs = Integer.toUnsignedLong(s.getGeoPredictedRttUs());
        servers.add(new Candidate(Endpoints.toSocketAddress(s.getEndpoint()), probeable(s.getProtocol()),
            s.getPredictedRttUs() / 1000.0, landmarkRtts(s, r.getLandmarkIdsList()),
            s.hasCoordinate() ? coordinate(s.getCoordinate(), dimensions) : null,
            geoUs > 0 && geoUs <= RttBound.MAX_US ? geoUs / 1000.0 : Double.NaN, place(s), reportFactor(s),
            suspects == SuspectServers.DEMOTE && s.getPredictedRttUnreliable()));
      } catch (IllegalArgumentException e) {
        if (dropped++ == 0) firstProblem = text(s.getEndpoint()) + ": " + e.getMessage();
      }
    }
    if (dropped > 0 && servers.isEmpty()) {
      throw bad("GetOrderedServers", "all " + dropped + " servers of the page are invalid, e.g. " + firstProblem);
    }
    if (dropped > 0) {
      log.warn("coordinator {}: dropped {} of {} servers of a page, e.g. {}", target, dropped, r.getServersCount(), firstProblem);
    }
    return new Page(List.copyOf(servers), r.getNextPageToken(), r.getTotalMatching(), dropped);
  }

  static ServerFilter filter(Filter f) {
    return filter(f, SuspectServers.DEMOTE);
  }

  static ServerFilter filter(Filter f, SuspectServers suspects) {
    return ServerFilter.newBuilder().setSuspectServers(switch (suspects) {
          case INCLUDE -> dev.reed.proto.v1.SuspectServers.SUSPECT_SERVERS_INCLUDE;
          case DEMOTE -> dev.reed.proto.v1.SuspectServers.SUSPECT_SERVERS_DEMOTE;
          case HIDE -> dev.reed.proto.v1.SuspectServers.SUSPECT_SERVERS_HIDE;
        }).setGame(f.game()).setMap(f.map()).setMinPlayers(f.minPlayers())
        .setNotFull(f.notFull()).setNotEmpty(f.notEmpty())
        .setPassword(switch (f.password()) {
          case ANY -> PasswordFilter.PASSWORD_FILTER_UNSPECIFIED;
          case EXCLUDE -> PasswordFilter.PASSWORD_FILTER_EXCLUDE;
          case ONLY -> PasswordFilter.PASSWORD_FILTER_ONLY;
        })
        .setRttLimitUs(micros(f.rttLimitMs())).build();
  }

  private static int micros(double ms) {
    return (int) Math.round(ms * 1000);
  }

  static dev.reed.proto.v1.Coordinate proto(Coordinate c) {
    var b = dev.reed.proto.v1.Coordinate.newBuilder().setHeightMs(c.height());
    for (double x : c.components()) b.addComponents(x);
    return b.build();
  }

  /** A checked coordinate; IllegalArgumentException names what is wrong. */
  static Coordinate coordinate(dev.reed.proto.v1.Coordinate p, int dims) {
    if (dims > 0 && p.getComponentsCount() != dims) {
      throw new IllegalArgumentException("coordinate has " + p.getComponentsCount() + " components, deployment has " + dims);
    }
    double[] x = new double[p.getComponentsCount()];
    for (int i = 0; i < x.length; i++) {
      x[i] = p.getComponents(i);
      if (!Double.isFinite(x[i])) throw new IllegalArgumentException("coordinate component " + i + " is " + x[i]);
    }
    if (!Double.isFinite(p.getHeightMs()) || p.getHeightMs() < 0) {
      throw new IllegalArgumentException("coordinate height is " + p.getHeightMs());
    }
    return new Coordinate(x, p.getHeightMs());
  }

  /** A ranked server's place, or null when the coordinator sent none. */
  private static Place place(RankedServer s) {
    if (!s.hasPlacement() || !s.getPlacement().hasPoint()
        || s.getPlacement().getSource() == LocationSource.LOCATION_SOURCE_UNSPECIFIED) {
      return null;
    }
    GeoPoint p = s.getPlacement().getPoint();
    return Place.of(p.getLatitudeDeg(), p.getLongitudeDeg()); // out of range: IllegalArgumentException, dropped
  }

  /** An endpoint for messages, whatever it holds. */
  private static String text(dev.reed.proto.v1.Endpoint e) {
    return "'" + e.getIp() + "':" + e.getPort();
  }

  private static GameProtocol probeable(GameProtocol p) {
    if (p != GameProtocol.GAME_PROTOCOL_A2S && p != GameProtocol.GAME_PROTOCOL_QUAKE3) {
      throw new IllegalArgumentException("protocol " + p + " cannot be probed");
    }
    return p;
  }

  private <T> T call(String method, Supplier<T> rpc) {
    try {
      return rpc.get();
    } catch (StatusRuntimeException e) {
      throw failure(method, e);
    }
  }

  ReedClientException failure(String method, StatusRuntimeException e) {
    Status s = e.getStatus();
    String what = s.getCode() + (s.getDescription() == null ? "" : ": " + s.getDescription())
        + (s.getCause() == null ? "" : " (" + s.getCause().getMessage() + ")");
    return switch (s.getCode()) {
      case UNAVAILABLE -> new ReedClientException(ReedClientException.Kind.COORDINATOR_UNAVAILABLE,
          "coordinator " + target + " is unreachable (" + method + "): " + what, e);
      case DEADLINE_EXCEEDED -> new ReedClientException(ReedClientException.Kind.COORDINATOR_DEADLINE,
          "coordinator " + target + " did not answer " + method + " within " + deadline.toMillis() + " ms", e);
      case INTERNAL, UNKNOWN, DATA_LOSS -> new ReedClientException(ReedClientException.Kind.COORDINATOR_BAD_RESPONSE,
          "coordinator " + target + " answered " + method + " with something that is not a valid REED reply: " + what, e);
      default -> new ReedClientException(ReedClientException.Kind.COORDINATOR_REJECTED,
          "coordinator " + target + " refused " + method + ": " + what, e);
    };
  }

  private ReedClientException bad(String method, String detail) {
    return new ReedClientException(ReedClientException.Kind.COORDINATOR_BAD_RESPONSE,
        "coordinator " + target + " answered " + method + " with an unusable reply: " + detail);
  }

  @Override
  public void close() {
    if (!ownsChannel) return;
    channel.shutdownNow();
    try {
      channel.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
