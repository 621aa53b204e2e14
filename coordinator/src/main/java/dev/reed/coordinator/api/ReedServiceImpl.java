package dev.reed.coordinator.api;

import static dev.reed.coordinator.api.RequestMapping.invalid;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.PositionFit;
import dev.reed.coordinates.calibration.CalibrationCandidate;
import dev.reed.coordinates.calibration.CalibrationSelector;
import dev.reed.coordinates.geo.Place;
import dev.reed.coordinates.reports.NeighbourhoodCorrections;
import dev.reed.coordinates.ranking.Cursor;
import dev.reed.coordinates.ranking.GroupRanked;
import dev.reed.coordinates.ranking.GroupRankedPage;
import dev.reed.coordinates.ranking.Ranked;
import dev.reed.coordinates.ranking.RankedPage;
import dev.reed.coordinates.ranking.RankingFilter;
import dev.reed.coordinator.CoordinatorConfig;
import dev.reed.coordinator.location.ClientAddress;
import dev.reed.coordinator.location.ClientPrior;
import dev.reed.coordinator.location.GeoModel;
import dev.reed.coordinator.location.HostGeo;
import dev.reed.coordinator.location.HostLocations;
import dev.reed.coordinator.index.CoordinateCodec;
import dev.reed.coordinator.index.read.RankedTemplate;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.coordinator.reports.ReportIntake;
import dev.reed.proto.Endpoints;
import dev.reed.proto.RttBound;
import dev.reed.proto.v1.CalibrationKind;
import dev.reed.proto.v1.CalibrationMeasurement;
import dev.reed.proto.v1.CalibrationServer;
import dev.reed.proto.v1.FitQuality;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.GeoPoint;
import dev.reed.proto.v1.GetCalibrationServersRequest;
import dev.reed.proto.v1.GetCalibrationServersResponse;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.GroupMember;
import dev.reed.proto.v1.GroupRankedServer;
import dev.reed.proto.v1.LandmarkCoordinate;
import dev.reed.proto.v1.LocateRequest;
import dev.reed.proto.v1.LocateResponse;
import dev.reed.proto.v1.LocationSource;
import dev.reed.proto.v1.Placement;
import dev.reed.proto.v1.RankForGroupRequest;
import dev.reed.proto.v1.RankForGroupResponse;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.proto.v1.ReportMeasurementsRequest;
import dev.reed.proto.v1.ReportMeasurementsResponse;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.proto.v1.StreamOrderedServersRequest;
import dev.reed.proto.v1.StreamOrderedServersResponse;
import io.grpc.Context;
import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The REED API (Armitage &amp; Heyde 2011): calibration servers (Algorithm 3, and the nearest ones
 * to a rough position for a second calibration phase), client
 * positioning, the ordered list (Algorithm 4) as pages and as a stream, and group ranking
 * (MUSST report). Every call reads one {@link ServingState} snapshot, so a page never mixes two
 * index versions; the state supplier is the only dependency on the rest of the coordinator, which
 * is what lets tests run this service in-process over any state.
 */
public final class ReedServiceImpl implements ReedServiceGrpc.AsyncService, io.grpc.BindableService {
  static final int DEFAULT_CALIBRATION = 14;
  static final int MAX_CALIBRATION = 64;
  static final int MAX_MEASUREMENTS = 256;
  static final int MAX_MEMBERS = 64;

  private final Supplier<ServingState> state;
  private final CoordinateConfig config;
  private final HostPositioner positioner;
  private final CalibrationSelector selector;
  private final Clock clock;
  private final Duration rotation;
  private final double calibrationMaxError;
  private final Supplier<GeoModel> geo;
  private final HostLocations locations;
  private final double wsOverheadMs;
  private final ReportIntake reports;
  private final NeighbourhoodCorrections corrections;

  /**
   * What the service reads besides its requests. {@link #of} takes what it cannot do without; the
   * rest start at the documented defaults and change with the withers.
   *
   * @param state the serving state, read once per call
   * @param config the deployment's coordinate model
   * @param clock for the calibration rotation and the age of client reports
   * @param rotation how long one calibration set is served before the next (spreads probe load);
   *     default the coordinator's, 10 minutes
   * @param calibrationMaxError game servers with a larger relative fit error never calibrate;
   *     default the coordinator's, 0.15
   * @param geo the location model (placements, the trained estimator); default {@link GeoModel#NONE}
   * @param locations the databases, for the client's location prior from its address
   *     ({@link ClientAddress}); default null, none
   * @param wsOverheadMs subtracted from Locate RTTs measured over a landmark's WebSocket beacon
   *     (TRANSPORT_WEBSOCKET), in milliseconds ({@code --ws-overhead-ms}); default 0
   * @param reports where ReportMeasurements goes; default null, reporting off (FAILED_PRECONDITION)
   * @param corrections what client reports taught, for RankedServer.report_factor; default null, none
   */
  public record Dependencies(Supplier<ServingState> state, CoordinateConfig config, Clock clock, Duration rotation,
      double calibrationMaxError, Supplier<GeoModel> geo, HostLocations locations, double wsOverheadMs,
      ReportIntake reports, NeighbourhoodCorrections corrections) {

    public Dependencies {
      java.util.Objects.requireNonNull(state, "state");
      java.util.Objects.requireNonNull(config, "config");
      java.util.Objects.requireNonNull(clock, "clock");
      java.util.Objects.requireNonNull(geo, "geo");
      if (rotation == null || rotation.toMillis() <= 0) {
        throw new IllegalArgumentException("rotation must be at least 1 ms, got " + rotation);
      }
      if (!(calibrationMaxError > 0)) {
        throw new IllegalArgumentException("calibrationMaxError must be > 0, got " + calibrationMaxError);
      }
    }

    /** The service over {@code state} with every other dependency at its default. */
    public static Dependencies of(Supplier<ServingState> state, CoordinateConfig config, Clock clock) {
      return new Dependencies(state, config, clock, CoordinatorConfig.Api.DEFAULT.calibrationRotation(),
          CoordinatorConfig.Api.DEFAULT.calibrationMaxError(), () -> GeoModel.NONE, null, 0, null, null);
    }

    public Dependencies withCalibration(Duration rotation, double calibrationMaxError) {
      return new Dependencies(state, config, clock, rotation, calibrationMaxError, geo, locations, wsOverheadMs, reports,
          corrections);
    }

    public Dependencies withGeo(Supplier<GeoModel> geo, HostLocations locations) {
      return new Dependencies(state, config, clock, rotation, calibrationMaxError, geo, locations, wsOverheadMs, reports,
          corrections);
    }

    public Dependencies withWsOverheadMs(double wsOverheadMs) {
      return new Dependencies(state, config, clock, rotation, calibrationMaxError, geo, locations, wsOverheadMs, reports,
          corrections);
    }

    public Dependencies withReports(ReportIntake reports, NeighbourhoodCorrections corrections) {
      return new Dependencies(state, config, clock, rotation, calibrationMaxError, geo, locations, wsOverheadMs, reports,
          corrections);
    }
  }

  public ReedServiceImpl(Dependencies deps) {
    this.state = deps.state();
    this.config = deps.config();
    this.positioner = new HostPositioner(config);
    this.selector = new CalibrationSelector(config);
    this.clock = deps.clock();
    this.rotation = deps.rotation();
    this.calibrationMaxError = deps.calibrationMaxError();
    this.geo = deps.geo();
    this.locations = deps.locations();
    this.wsOverheadMs = deps.wsOverheadMs();
    this.reports = deps.reports();
    this.corrections = deps.corrections();
  }

  private record Calibrator(CalibrationServer server, Coordinate coordinate) {}

  /**
   * The client's location prior: the location it states (validated), else its address's; null
   * when unknown or when no database is configured (a stated location is still validated).
   */
  private ClientPrior prior(GeoModel g, boolean hasLocation, GeoPoint location) {
    ClientPrior p;
    try {
      p = ClientPrior.of(hasLocation ? location : null, g.locating() ? ClientAddress.KEY.get() : null, locations);
    } catch (IllegalArgumentException e) {
      throw invalid(e.getMessage());
    }
    return g.locating() ? p : null;
  }

  @Override
  public void getCalibrationServers(GetCalibrationServersRequest req, StreamObserver<GetCalibrationServersResponse> out) {
    ServingState s = state.get();
    int d = config.dimensions();
    int count = req.getCount() == 0 ? Math.max(DEFAULT_CALIBRATION, d + 1) : req.getCount();
    // the near phase adds to a spread set that already positioned the client: any count from 1 will do
    int min = req.hasNear() ? 1 : d + 1;
    if (count < min || count > MAX_CALIBRATION) {
      throw invalid("count must be between " + (req.hasNear() ? "1" : "dimensions + 1 = " + (d + 1)) + " and "
          + MAX_CALIBRATION + (req.hasNear() ? " with near" : "") + ", got " + Integer.toUnsignedString(req.getCount()));
    }
    Coordinate near = req.hasNear() ? RequestMapping.coordinate(true, req.getNear(), d, "near") : null;
    if (req.getProtocol() == GameProtocol.UNRECOGNIZED) throw invalid("protocol: unknown value " + req.getProtocolValue());
    if (req.getKind() == CalibrationKind.UNRECOGNIZED) throw invalid("kind: unknown value " + req.getKindValue());
    CalibrationKind kind = req.getKind();
    GeoModel g = geo.get();
    ClientPrior prior = prior(g, req.hasLocation(), req.getLocation());
    Map<String, Calibrator> byKey = calibrators(s, req.getProtocol());
    List<CalibrationCandidate> candidates = new ArrayList<>(byKey.size());
    byKey.forEach((k, c) -> {
      if (kind == CalibrationKind.CALIBRATION_KIND_UNSPECIFIED || c.server().getKind() == kind) {
        candidates.add(new CalibrationCandidate(k, c.coordinate(), c.server().getFit().getRelativeError(),
            c.server().getFit().getLandmarksUsed()));
      }
    });
    GetCalibrationServersResponse.Builder b = GetCalibrationServersResponse.newBuilder()
        .setDimensions(d).setHeightModel(config.height());
    if (!candidates.isEmpty()) {
      List<CalibrationCandidate> chosen;
      if (near != null) {
        chosen = selector.nearest(candidates, near, count, java.util.Set.of());
      } else {
        long epoch = clock.millis() / rotation.toMillis();
        chosen = selector.select(candidates, count, epoch);
      }
      for (CalibrationCandidate c : chosen) {
        CalibrationServer server = byKey.get(c.key()).server();
        if (prior != null && g.trained()) {
          HostGeo h = server.getKind() == CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON ? g.beacons().get(c.key()) : g.server(c.key());
          int us = GeoModel.micros(g.geoMs(prior.place(), h));
          if (us > 0) server = server.toBuilder().setGeoPredictedRttUs(us).build();
        }
        b.addServers(server);
      }
    }
    if (prior != null) b.setClientPlacement(prior.placement());
    if (g.trained()) b.setFusion(g.fusion());
    out.onNext(b.build());
    out.onCompleted();
  }

  /** Calibrators of one state and protocol, computed once per index version (the state is immutable). */
  private record CalibratorCache(ServingState state, GameProtocol protocol, Map<String, Calibrator> byKey) {}

  private final java.util.concurrent.atomic.AtomicReference<CalibratorCache> cache = new java.util.concurrent.atomic.AtomicReference<>();

  /** Landmark beacons (always) and well-fitted game servers, by endpoint key. */
  private Map<String, Calibrator> calibrators(ServingState s, GameProtocol protocol) {
    CalibratorCache c = cache.get();
    if (c != null && c.state() == s && c.protocol() == protocol) return c.byKey();
    Map<String, Calibrator> computed = computeCalibrators(s, protocol);
    cache.set(new CalibratorCache(s, protocol, computed));
    return computed;
  }

  private Map<String, Calibrator> computeCalibrators(ServingState s, GameProtocol protocol) {
    int d = config.dimensions();
    Map<String, Calibrator> out = new HashMap<>();
    for (ServerCoordinate c : s.coordinatesOnly().values()) {
      if (protocol != GameProtocol.GAME_PROTOCOL_UNSPECIFIED && c.getProtocol() != protocol) continue;
      if (c.getFit().getRelativeError() > calibrationMaxError || c.getFit().getLandmarksUsed() < d + 1) continue;
      Coordinate coordinate = CoordinateCodec.fromProto(c.getCoordinate(), d, "server");
      out.put(Endpoints.key(c.getEndpoint()), new Calibrator(CalibrationServer.newBuilder()
          .setEndpoint(c.getEndpoint()).setProtocol(c.getProtocol()).setCoordinate(c.getCoordinate())
          .setKind(CalibrationKind.CALIBRATION_KIND_GAME_SERVER).setFit(c.getFit()).build(), coordinate));
    }
    out.putAll(beacons(s, protocol));
    return Map.copyOf(out);
  }

  private Map<String, Calibrator> beacons(ServingState s, GameProtocol protocol) {
    int d = config.dimensions();
    Map<String, Calibrator> out = new HashMap<>();
    GameProtocol beaconProtocol = protocol == GameProtocol.GAME_PROTOCOL_UNSPECIFIED ? GameProtocol.GAME_PROTOCOL_A2S : protocol;
    for (LandmarkCoordinate l : s.landmarks().values()) {
      if (!l.hasBeacon() || l.getBeacon().getIp().isEmpty()) continue;
      Coordinate coordinate = CoordinateCodec.fromProto(l.getCoordinate(), d, "landmark");
      out.put(Endpoints.key(l.getBeacon()), new Calibrator(CalibrationServer.newBuilder()
          .setEndpoint(l.getBeacon()).setProtocol(beaconProtocol).setCoordinate(l.getCoordinate())
          .setKind(CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON).setFit(l.getFit()).setLandmarkId(l.getLandmarkId())
          .build(), coordinate));
    }
    return out;
  }

  @Override
  public void locate(LocateRequest req, StreamObserver<LocateResponse> out) {
    ServingState s = state.get();
    int d = config.dimensions();
    int n = req.getMeasurementsCount();
    if (n < d + 1 || n > MAX_MEASUREMENTS) {
      throw invalid("measurements: need between dimensions + 1 = " + (d + 1) + " and " + MAX_MEASUREMENTS + ", got " + n);
    }
    Map<String, Calibrator> beacons = beacons(s, GameProtocol.GAME_PROTOCOL_UNSPECIFIED);
    Map<String, Double> rtt = new java.util.LinkedHashMap<>();
    Map<String, Coordinate> anchorsByKey = new HashMap<>();
    for (int i = 0; i < n; i++) {
      CalibrationMeasurement m = req.getMeasurements(i);
      long us = Integer.toUnsignedLong(m.getRttUs());
      if (us < 1 || us > RttBound.MAX_US) {
        throw invalid("measurements[" + i + "].rtt_us must be 1-" + RttBound.MAX_US + ", got " + us);
      }
      String key;
      try {
        key = Endpoints.key(Endpoints.parse(Endpoints.key(m.getEndpoint())));
      } catch (IllegalArgumentException e) {
        throw invalid("measurements[" + i + "].endpoint: " + e.getMessage());
      }
      Coordinate at;
      if (beacons.containsKey(key)) {
        at = beacons.get(key).coordinate();
      } else if (s.servers().containsKey(key)) {
        at = CoordinateCodec.fromProto(s.coordinatesOnly().get(key).getCoordinate(), d, "server");
      } else {
        throw invalid("measurements[" + i + "].endpoint " + key + " is not a server with a coordinate");
      }
      anchorsByKey.put(key, at);
      double ms = switch (m.getTransport()) {
        case TRANSPORT_UDP -> us / 1000.0;
        // a WebSocket echo carries TCP and the page's timers on top of the path: the measured overhead
        // (coordinator README); never below 50 us, a loopback UDP RTT
        case TRANSPORT_WEBSOCKET -> Math.max(0.05, us / 1000.0 - wsOverheadMs);
        default -> throw invalid("measurements[" + i + "].transport: unknown value " + m.getTransportValue()
            + " (TRANSPORT_UDP or TRANSPORT_WEBSOCKET)");
      };
      rtt.merge(key, ms, Math::min);
    }
    List<Coordinate> anchors = new ArrayList<>();
    double[] ms = new double[rtt.size()];
    int i = 0;
    for (Map.Entry<String, Double> e : rtt.entrySet()) {
      anchors.add(anchorsByKey.get(e.getKey()));
      ms[i++] = e.getValue();
    }
    PositionFit fit;
    try {
      fit = positioner.position(anchors, ms, null);
    } catch (IllegalArgumentException e) {
      throw invalid("cannot position from these measurements: " + e.getMessage());
    }
    LocateResponse.Builder b = LocateResponse.newBuilder()
        .setCoordinate(CoordinateCodec.toProto(fit.coordinate()))
        .setFit(FitQuality.newBuilder().setRelativeError(fit.relativeError()).setLandmarksUsed(fit.anchorsUsed()));
    GeoModel g = geo.get();
    ClientPrior prior = prior(g, req.hasLocation(), req.getLocation());
    if (prior != null && g.trained()) {
      fixLocation(b, g, prior, req, rtt);
    }
    out.onNext(b.build());
    out.onCompleted();
  }

  /**
   * The client's location prior corrected by its calibration RTTs ({@link GeoModel#relocate}), with
   * the geographic prediction from there to each measured server, in the request's order.
   */
  private static void fixLocation(LocateResponse.Builder b, GeoModel g, ClientPrior prior, LocateRequest req,
      Map<String, Double> rtt) {
    Map<String, Double> toBeacons = new HashMap<>();
    rtt.forEach((key, ms) -> {
      if (g.beacons().containsKey(key)) toBeacons.put(key, ms);
    });
    Place at = g.relocate(prior.place(), toBeacons);
    b.setPlacement(at.equals(prior.place()) ? prior.placement() : Placement.newBuilder()
        .setPoint(GeoPoint.newBuilder().setLatitudeDeg(at.lat()).setLongitudeDeg(at.lon()))
        .setSource(LocationSource.LOCATION_SOURCE_MEASURED).build());
    for (CalibrationMeasurement m : req.getMeasurementsList()) {
      String key = Endpoints.key(Endpoints.parse(Endpoints.key(m.getEndpoint()))); // as locate keyed it
      HostGeo h = g.beacons().containsKey(key) ? g.beacons().get(key) : g.server(key);
      b.addGeoPredictedRttUs(GeoModel.micros(g.geoMs(at, h)));
    }
    b.setFusion(g.fusion());
  }

  /**
   * What GetOrderedServers and StreamOrderedServers both ask, decoded once per call against one
   * serving state.
   *
   * @param after the request's cursor; null on a first page and when suspect servers are demoted
   *     (the token then says which half of the list it is in)
   */
  private record OrderedRequest(ServingState state, Coordinate client, int pageSize, boolean demote, Cursor after,
      RankingFilter filter, GeoRanking ranking, ReportFactors factors) {

    /** The page of {@code size} after {@code token} (whose cursor is {@code after}). */
    DemotedPages.Page<Ranked> page(String token, Cursor after, int size) {
      return demote
          ? DemotedPages.page((f, a, n) -> slice(ranking.page(state, client, f, a, n)), filter, token, size)
          : whole(ranking.page(state, client, filter, after, size));
    }
  }

  /**
   * Decodes the ordered calls' common parts, in this order (the first bad one is the error):
   * location, client coordinate, page size, page token, filter.
   *
   * @param ignoreLocation a client that found its prior inconsistent with its calibration asks for
   *     coordinates alone
   */
  private OrderedRequest ordered(boolean hasLocation, GeoPoint location, boolean ignoreLocation, boolean hasClient,
      dev.reed.proto.v1.Coordinate clientCoordinate, int pageSize, dev.reed.proto.v1.ServerFilter filter, String token,
      List<LandmarkRtt> landmarkRtts) {
    ServingState s = state.get();
    GeoModel g = geo.get();
    ClientPrior stated = prior(g, hasLocation, location);
    ClientPrior prior = ignoreLocation && hasClient ? null : stated;
    Coordinate client = hasClient || !g.locating()
        ? RequestMapping.coordinate(hasClient, clientCoordinate, config.dimensions(), "client") : null;
    int size = RequestMapping.pageSize(pageSize, "page_size");
    boolean demote = RequestMapping.demotes(filter, s.index(), token);
    Cursor after = demote ? null : RequestMapping.cursor(token);
    return new OrderedRequest(s, client, size, demote, after, RequestMapping.filter(filter), GeoRanking.of(g, prior, client),
        ReportFactors.of(corrections, client, landmarkRtts, clock.millis()));
  }

  /** Algorithm 4, one page, encoded as a GetOrderedServersResponse (see {@link EncodedOrderedPage}). */
  byte[] orderedPage(GetOrderedServersRequest req) {
    OrderedRequest o = ordered(req.hasLocation(), req.getLocation(), req.getIgnoreLocation(), req.hasClient(),
        req.getClient(), req.getPageSize(), req.getFilter(), req.getPageToken(), req.getLandmarkRttsList());
    ServingState s = o.state();
    GeoRanking ranking = o.ranking();
    ReportFactors factors = o.factors();
    if (s.index().size() == 0) return new byte[0];
    DemotedPages.Page<Ranked> page = o.page(req.getPageToken(), o.after(), o.pageSize());
    RankedTemplate[] templates = new RankedTemplate[page.items().size()];
    int[] predicted = new int[templates.length];
    byte[][] extras = ranking.decorates() || factors != null ? new byte[predicted.length][] : null;
    for (int i = 0; i < predicted.length; i++) {
      Ranked r = page.items().get(i);
      RankedTemplate t = s.template(r);
      templates[i] = t != null ? t : RankedTemplate.bare(Endpoints.parse(r.server().key()));
      predicted[i] = CoordinateCodec.toMicros(r.predictedMs());
      if (ranking.decorates()) extras[i] = ranking.extra(r.server().key(), r.predictedMs());
      if (factors != null) extras[i] = factors.append(extras[i], r.server());
    }
    return EncodedOrderedPage.encode(templates, predicted, extras, page.nextToken(), page.total(), s.landmarkIds(),
        req.getCompactLandmarkRtts());
  }

  private static DemotedPages.Slice<Ranked> slice(RankedPage p) {
    return new DemotedPages.Slice<>(p.servers(), p.next(), p.totalMatching());
  }

  private static DemotedPages.Page<Ranked> whole(RankedPage p) {
    return new DemotedPages.Page<>(p.servers(), p.next() == null ? "" : p.next().encode(), p.totalMatching());
  }

  /**
   * The generated binding, except that GetOrderedServers answers with pre-encoded bytes: the
   * same method name, request type and wire format, but no per-call message building (the gRPC
   * port). {@link #getOrderedServers} serves bindings that need response messages (the HTTP face's
   * JSON and gRPC-Web, through {@code ReedServiceGrpc.bindService(this)}).
   */
  @Override
  public ServerServiceDefinition bindService() {
    ServerServiceDefinition generated = ReedServiceGrpc.bindService(this);
    MethodDescriptor<GetOrderedServersRequest, byte[]> encoded = ReedServiceGrpc.getGetOrderedServersMethod()
        .toBuilder(ProtoUtils.marshaller(GetOrderedServersRequest.getDefaultInstance()), dev.reed.proto.EncodedMessages.MARSHALLER)
        .build();
    ServiceDescriptor.Builder descriptor = ServiceDescriptor.newBuilder(ReedServiceGrpc.SERVICE_NAME)
        .setSchemaDescriptor(generated.getServiceDescriptor().getSchemaDescriptor());
    for (MethodDescriptor<?, ?> m : generated.getServiceDescriptor().getMethods()) {
      descriptor.addMethod(m.getFullMethodName().equals(encoded.getFullMethodName()) ? encoded : m);
    }
    ServerServiceDefinition.Builder b = ServerServiceDefinition.builder(descriptor.build());
    for (ServerMethodDefinition<?, ?> m : generated.getMethods()) {
      if (!m.getMethodDescriptor().getFullMethodName().equals(encoded.getFullMethodName())) b.addMethod(m);
    }
    b.addMethod(encoded, ServerCalls.asyncUnaryCall((GetOrderedServersRequest req, StreamObserver<byte[]> out) -> {
      // a page nobody waits for is not computed: a call whose deadline passed (or whose client
      // gave up) while it queued behind a pause; a replica back from a pause would otherwise work
      // through that backlog first and delay the calls still waiting
      if (Context.current().isCancelled()) {
        out.onError(Status.CANCELLED.withDescription("the client cancelled the call before it was served").asRuntimeException());
        return;
      }
      out.onNext(orderedPage(req));
      out.onCompleted();
    }));
    return b.build();
  }

  /**
   * GetOrderedServers as a message, for {@code ReedServiceGrpc.bindService(this)}: the HTTP face
   * renders it as JSON. The same bytes as the gRPC port's answer, parsed back.
   */
  @Override
  public void getOrderedServers(GetOrderedServersRequest req, StreamObserver<dev.reed.proto.v1.GetOrderedServersResponse> out) {
    try {
      out.onNext(dev.reed.proto.v1.GetOrderedServersResponse.parseFrom(orderedPage(req)));
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalStateException("encoded page does not parse", e);
    }
    out.onCompleted();
  }

  @Override
  public void streamOrderedServers(StreamOrderedServersRequest req, StreamObserver<StreamOrderedServersResponse> out) {
    OrderedRequest o = ordered(req.hasLocation(), req.getLocation(), false, req.hasClient(), req.getClient(),
        req.getPageSize(), req.getFilter(), "", req.getLandmarkRttsList());
    long max = req.getMaxServers() == 0 ? Long.MAX_VALUE : Integer.toUnsignedLong(req.getMaxServers());
    ServerCallStreamObserver<StreamOrderedServersResponse> call = (ServerCallStreamObserver<StreamOrderedServersResponse>) out;
    OrderedStream stream = new OrderedStream(o, max, req.getCompactLandmarkRtts(), call);
    call.setOnCancelHandler(stream::cancel);
    call.setOnReadyHandler(stream::drain); // flow control: the next page only when the client can take it
    stream.drain();
  }

  /** One StreamOrderedServers call: pages from one index version, sent while the transport is ready. */
  private static final class OrderedStream {
    private final OrderedRequest request;
    private final ServingState state;
    private final GeoRanking ranking;
    private final ReportFactors factors;
    private final long max;
    private final boolean compact;
    private final ServerCallStreamObserver<StreamOrderedServersResponse> call;
    private String token = "";
    private long sent;
    private boolean done;

    OrderedStream(OrderedRequest request, long max, boolean compact, ServerCallStreamObserver<StreamOrderedServersResponse> call) {
      this.request = request;
      this.state = request.state();
      this.ranking = request.ranking();
      this.factors = request.factors();
      this.max = max;
      this.compact = compact;
      this.call = call;
    }

    synchronized void cancel() {
      done = true;
    }

    synchronized void drain() {
      while (!done && call.isReady()) {
        if (Context.current().isCancelled()) {
          done = true;
          return;
        }
        if (state.index().size() == 0 || sent >= max) {
          finish();
          return;
        }
        int size = (int) Math.min(request.pageSize(), max - sent);
        // the tokens after the first are this stream's own
        DemotedPages.Page<Ranked> page = request.page(token, request.demote() ? null : RequestMapping.cursor(token), size);
        StreamOrderedServersResponse.Builder b = StreamOrderedServersResponse.newBuilder();
        for (Ranked r : page.items()) {
          RankedServer server = ranking.decorate(RequestMapping.ranked(state, r.server().key(), r.predictedMs(), compact),
              r.server().key(), r.predictedMs());
          b.addServers(factors == null ? server : factors.decorate(server, r.server()));
        }
        if (compact) b.addAllLandmarkIds(state.landmarkIds());
        if (b.getServersCount() > 0) call.onNext(b.build());
        sent += b.getServersCount();
        token = page.nextToken();
        if (token.isEmpty() || b.getServersCount() == 0) {
          finish();
          return;
        }
      }
    }

    private void finish() {
      done = true;
      call.onCompleted();
    }
  }

  @Override
  public void reportMeasurements(ReportMeasurementsRequest req, StreamObserver<ReportMeasurementsResponse> out) {
    if (reports == null) {
      throw io.grpc.Status.FAILED_PRECONDITION.withDescription("client reports are turned off on this coordinator (--no-reports)")
          .asRuntimeException();
    }
    java.util.concurrent.CompletableFuture<ReportMeasurementsResponse> done;
    try {
      done = reports.accept(req, ClientAddress.KEY.get(), ApiKeyInterceptor.KEY.get());
    } catch (ReportIntake.Rejected e) {
      throw invalid(e.getMessage());
    }
    done.whenComplete((response, failure) -> {
      if (failure != null) {
        out.onError(io.grpc.Status.UNAVAILABLE.withDescription("the report could not be stored; retry later").asRuntimeException());
      } else {
        out.onNext(response);
        out.onCompleted();
      }
    });
  }

  @Override
  public void rankForGroup(RankForGroupRequest req, StreamObserver<RankForGroupResponse> out) {
    ServingState s = state.get();
    int members = req.getMembersCount();
    if (members < 1 || members > MAX_MEMBERS) throw invalid("members: need 1-" + MAX_MEMBERS + ", got " + members);
    List<Coordinate> coords = new ArrayList<>();
    for (int i = 0; i < members; i++) {
      GroupMember m = req.getMembers(i);
      String label = "members[" + i + "]" + (m.getMemberId().isEmpty() ? "" : " (" + m.getMemberId() + ")") + ".coordinate";
      coords.add(RequestMapping.coordinate(m.hasCoordinate(), m.getCoordinate(), config.dimensions(), label));
    }
    dev.reed.coordinates.ranking.GroupObjective objective = switch (req.getObjective()) {
      case GROUP_OBJECTIVE_UNSPECIFIED, GROUP_OBJECTIVE_MIN_MAX -> dev.reed.coordinates.ranking.GroupObjective.MIN_MAX;
      case GROUP_OBJECTIVE_MEAN_UNDER_CEILING -> dev.reed.coordinates.ranking.GroupObjective.MEAN_UNDER_CEILING;
      default -> throw invalid("objective: unknown value " + req.getObjectiveValue());
    };
    double ceilingMs = Integer.toUnsignedLong(req.getMemberRttCeilingUs()) / 1000.0;
    if (objective == dev.reed.coordinates.ranking.GroupObjective.MEAN_UNDER_CEILING && ceilingMs <= 0) {
      throw invalid("member_rtt_ceiling_us must be > 0 with GROUP_OBJECTIVE_MEAN_UNDER_CEILING");
    }
    int pageSize = RequestMapping.pageSize(req.getPageSize(), "page_size");
    boolean demote = RequestMapping.demotes(req.getFilter(), s.index(), req.getPageToken());
    Cursor after = demote ? null : RequestMapping.cursor(req.getPageToken());
    RankingFilter filter = RequestMapping.filter(req.getFilter());
    RankForGroupResponse.Builder b = RankForGroupResponse.newBuilder();
    if (s.index().size() > 0) {
      DemotedPages.Page<GroupRanked> page;
      DemotedPages.Pager<GroupRanked> pager = (f, a, n) -> {
        GroupRankedPage p = s.index().rankForGroup(coords, objective, ceilingMs, f, a, n);
        return new DemotedPages.Slice<>(p.servers(), p.next(), p.totalMatching());
      };
      try {
        if (demote) {
          page = DemotedPages.page(pager, filter, req.getPageToken(), pageSize);
        } else {
          DemotedPages.Slice<GroupRanked> one = pager.page(filter, after, pageSize);
          page = new DemotedPages.Page<>(one.items(), one.next() == null ? "" : one.next().encode(), one.total());
        }
      } catch (IllegalArgumentException e) {
        throw invalid(e.getMessage());
      }
      for (GroupRanked g : page.items()) {
        RankedServer server = RequestMapping.ranked(s, g.server().key(), g.scoreMs(), req.getCompactLandmarkRtts());
        GroupRankedServer.Builder gb = GroupRankedServer.newBuilder().setServer(server);
        for (double ms : g.memberPredictedMs()) gb.addMemberPredictedRttUs(CoordinateCodec.toMicros(ms));
        b.addServers(gb);
      }
      b.setNextPageToken(page.nextToken());
    }
    if (req.getCompactLandmarkRtts()) b.addAllLandmarkIds(s.landmarkIds());
    out.onNext(b.build());
    out.onCompleted();
  }
}
