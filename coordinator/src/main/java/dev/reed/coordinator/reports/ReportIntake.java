package dev.reed.coordinator.reports;

import com.google.protobuf.Timestamp;
import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.reports.ReportConfig;
import dev.reed.coordinates.reports.ReportScreen;
import dev.reed.coordinator.index.CoordinateCodec;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.proto.Endpoints;
import dev.reed.proto.RttBound;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.ClientReportRecord;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.ReportDrop;
import dev.reed.proto.v1.ReportDropReason;
import dev.reed.proto.v1.ReportMeasurementsRequest;
import dev.reed.proto.v1.ReportMeasurementsResponse;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.proto.v1.ServerMeasurement;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The ReportMeasurements call: validates a report against the serving state, replaces the client's
 * address by its group keys ({@link GroupKeys}) and publishes it on reed.client-reports. Nothing of
 * the address outlives the call. Every refusal is counted by {@link Rejection}, the reason the
 * client is told in its INVALID_ARGUMENT.
 */
public final class ReportIntake implements AutoCloseable {
  /** Servers one report may carry (a discovery probes 40-60; a generous bound on abuse). */
  public static final int MAX_SERVERS = 512;
  /** Landmark RTTs one report or page request may carry. */
  public static final int MAX_LANDMARKS = 64;
  /** The largest encoded report accepted. */
  public static final int MAX_BYTES = 64 * 1024;
  /** How far in the future a discovery may claim to have started (clock skew). */
  static final long FUTURE_SLACK_MS = 5 * 60_000L;

  /** Why a report was refused (metric label {@code reason}, lower case). */
  public enum Rejection {
    UNAUTHENTICATED, RATE_LIMITED, TOO_LARGE, MISSING_COORDINATE, BAD_COORDINATE, BAD_LOCATION, BAD_TIME,
    NO_SERVERS, TOO_MANY_SERVERS, TOO_MANY_LANDMARKS, BAD_ENDPOINT, BAD_RTT, DUPLICATE, UNKNOWN_SERVERS, NO_LANDMARKS;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** A refused report: why (counted) and what to tell the client. */
  public static final class Rejected extends RuntimeException {
    private final Rejection reason;

    Rejected(Rejection reason, String message) {
      super(message, null, false, false);
      this.reason = reason;
    }

    public Rejection reason() {
      return reason;
    }
  }

  private final Supplier<ServingState> state;
  private final GroupKeys groups;
  private final Function<InetAddress, Long> asn;
  private final Producer<byte[], byte[]> producer;
  private final Clock clock;
  private final long maxAgeMillis;
  private final ReportScreen screen;
  private final int minLandmarks;
  private final Map<Rejection, AtomicLong> rejected = new EnumMap<>(Rejection.class);
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong publishFailures = new AtomicLong();
  /**
   * Sends happen here, not on the gRPC threads: while the broker is unreachable a send blocks for
   * up to the producer's max.block.ms, and rankings must still be served from memory then. A full
   * queue answers UNAVAILABLE at once.
   */
  private final java.util.concurrent.ThreadPoolExecutor sender = new java.util.concurrent.ThreadPoolExecutor(1, 1, 0,
      java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.ArrayBlockingQueue<>(1024),
      Thread.ofPlatform().name("report-sender").daemon().factory());

  /**
   * @param asn the AS number announcing an address, null when unknown (no AS database)
   * @param config the report learning's settings: a discovery older than its maximum age is refused
   *     (the corrections would forget it at once), and so is a report with fewer landmark RTTs than
   *     its minimum that its servers do not locate ({@link ReportScreen#locatedByServers})
   */
  public ReportIntake(Supplier<ServingState> state, GroupKeys groups, Function<InetAddress, Long> asn,
      Producer<byte[], byte[]> producer, Clock clock, ReportConfig config) {
    this.state = state;
    this.groups = groups;
    this.asn = asn;
    this.producer = producer;
    this.clock = clock;
    this.maxAgeMillis = config.maxAgeMillis();
    this.screen = new ReportScreen(config);
    this.minLandmarks = config.minLandmarks();
    for (Rejection r : Rejection.values()) rejected.put(r, new AtomicLong());
  }

  /** Reports refused for a reason so far. */
  public long rejected(Rejection r) {
    return rejected.get(r).get();
  }

  /** Counts a refusal made before the call got here (API key, rate limit). */
  public void count(Rejection r) {
    rejected.get(r).incrementAndGet();
  }

  /** Reports published. */
  public long accepted() {
    return accepted.get();
  }

  /** Reports accepted but not published (broker unreachable); the client was told UNAVAILABLE. */
  public long publishFailures() {
    return publishFailures.get();
  }

  /**
   * Validates and publishes one report; completes with the response once Kafka has it.
   *
   * @param client the client's address (ClientAddress), null when unknown; used for the group keys only
   * @param apiKey the API key the client presented, or null
   * @throws Rejected an invalid report (counted)
   */
  public CompletableFuture<ReportMeasurementsResponse> accept(ReportMeasurementsRequest req, InetAddress client,
      String apiKey) {
    ClientReportRecord.Builder record;
    Map<ReportDropReason, Integer> drops = new EnumMap<>(ReportDropReason.class);
    try {
      record = validate(req, state.get(), drops);
    } catch (Rejected e) {
      count(e.reason());
      throw e;
    }
    long now = clock.millis();
    Long as = client == null ? null : asn.apply(client);
    List<String> keys = groups.of(client, as == null ? 0 : as, apiKey);
    record.addAllGroupKeys(keys).setReceiveTime(timestamp(now));
    ClientReportRecord r = record.build();
    CompletableFuture<ReportMeasurementsResponse> done = new CompletableFuture<>();
    ReportMeasurementsResponse.Builder response = ReportMeasurementsResponse.newBuilder().setAccepted(r.getServersCount());
    drops.forEach((reason, n) -> response.addDropped(ReportDrop.newBuilder().setReason(reason).setCount(n)));
    ProducerRecord<byte[], byte[]> out = new ProducerRecord<>(Topic.CLIENT_REPORTS.name(),
        keys.getFirst().getBytes(StandardCharsets.UTF_8), r.toByteArray());
    try {
      sender.execute(new Send(out, done, response.build()));
    } catch (java.util.concurrent.RejectedExecutionException e) {
      publishFailures.incrementAndGet();
      done.completeExceptionally(e);
    }
    return done;
  }

  /** The record to publish (without group keys and time), or why not. */
  ClientReportRecord.Builder validate(ReportMeasurementsRequest req, ServingState s, Map<ReportDropReason, Integer> drops) {
    int size = req.getSerializedSize();
    if (size > MAX_BYTES) throw new Rejected(Rejection.TOO_LARGE, "report is " + size + " bytes, at most " + MAX_BYTES);
    if (!req.hasClient()) throw new Rejected(Rejection.MISSING_COORDINATE, "client (the coordinate) is required");
    Coordinate position;
    try {
      position = CoordinateCodec.fromProto(req.getClient(), s.dimensions(), "client");
    } catch (IllegalArgumentException e) {
      throw new Rejected(Rejection.BAD_COORDINATE, e.getMessage());
    }
    ClientReportRecord.Builder b = ClientReportRecord.newBuilder().setClient(req.getClient());
    if (req.hasLocation()) {
      double lat = req.getLocation().getLatitudeDeg();
      double lon = req.getLocation().getLongitudeDeg();
      if (!(lat >= -90 && lat <= 90) || !(lon >= -180 && lon <= 180)) {
        throw new Rejected(Rejection.BAD_LOCATION, "location must be latitude -90..90 and longitude -180..180 degrees, got "
            + lat + ", " + lon);
      }
      b.setLocation(req.getLocation());
    }
    if (req.hasDiscoveryStartTime()) {
      Timestamp t = req.getDiscoveryStartTime();
      long ms = t.getSeconds() * 1000 + t.getNanos() / 1_000_000;
      long now = clock.millis();
      if (t.getNanos() < 0 || t.getNanos() > 999_999_999 || ms > now + FUTURE_SLACK_MS || ms < now - maxAgeMillis) {
        throw new Rejected(Rejection.BAD_TIME, "discovery_start_time must be within the last " + maxAgeMillis / 1000
            + " s and at most " + FUTURE_SLACK_MS / 1000 + " s ahead");
      }
      b.setDiscoveryStartTime(t);
    }
    if (req.getLandmarkRttsCount() > MAX_LANDMARKS) {
      throw new Rejected(Rejection.TOO_MANY_LANDMARKS, "landmark_rtts: at most " + MAX_LANDMARKS + ", got "
          + req.getLandmarkRttsCount());
    }
    Set<String> seen = new HashSet<>();
    int unknownLandmarks = 0;
    for (int i = 0; i < req.getLandmarkRttsCount(); i++) {
      LandmarkRtt l = req.getLandmarkRtts(i);
      checkRtt(l.getRttUs(), "landmark_rtts[" + i + "].rtt_us");
      if (!seen.add(l.getLandmarkId())) {
        throw new Rejected(Rejection.DUPLICATE, "landmark_rtts[" + i + "]: landmark '" + l.getLandmarkId() + "' twice");
      }
      if (s.landmarks().containsKey(l.getLandmarkId()) || s.announcements().containsKey(l.getLandmarkId())) {
        b.addLandmarkRtts(l);
      } else {
        unknownLandmarks++;
      }
    }
    int n = req.getServersCount();
    if (n == 0) throw new Rejected(Rejection.NO_SERVERS, "servers: a report needs at least one server");
    if (n > MAX_SERVERS) throw new Rejected(Rejection.TOO_MANY_SERVERS, "servers: at most " + MAX_SERVERS + ", got " + n);
    seen.clear();
    int unknown = 0;
    for (int i = 0; i < n; i++) {
      ServerMeasurement m = req.getServers(i);
      String key;
      try {
        key = Endpoints.key(Endpoints.parse(Endpoints.key(m.getEndpoint())));
      } catch (IllegalArgumentException e) {
        throw new Rejected(Rejection.BAD_ENDPOINT, "servers[" + i + "].endpoint: " + e.getMessage());
      }
      if (m.getTimedOut()) {
        if (m.getRttUs() != 0) throw new Rejected(Rejection.BAD_RTT, "servers[" + i + "]: rtt_us must be 0 when timed_out");
      } else {
        checkRtt(m.getRttUs(), "servers[" + i + "].rtt_us");
      }
      if (!seen.add(key)) throw new Rejected(Rejection.DUPLICATE, "servers[" + i + "]: " + key + " twice");
      if (s.servers().containsKey(key)) {
        b.addServers(m.toBuilder().setEndpoint(Endpoints.parse(key)));
      } else {
        unknown++;
      }
    }
    if (b.getServersCount() == 0) {
      throw new Rejected(Rejection.UNKNOWN_SERVERS, "servers: none of the " + n + " is a server this coordinator ranks"
          + (n == 1 ? " (" + seen.iterator().next() + ")" : ""));
    }
    if (b.getLandmarkRttsCount() < minLandmarks && !locatedByServers(b, position, s)) {
      throw new Rejected(Rejection.NO_LANDMARKS, "landmark_rtts: a report needs the RTTs to at least " + minLandmarks
          + " landmarks (got " + b.getLandmarkRttsCount() + " this coordinator knows), or RTTs to at least "
          + ReportScreen.LOCATING_SERVERS + " servers that agree with the predictions from its coordinate");
    }
    if (unknown > 0) drops.put(ReportDropReason.REPORT_DROP_REASON_UNKNOWN_SERVER, unknown);
    if (unknownLandmarks > 0) drops.put(ReportDropReason.REPORT_DROP_REASON_UNKNOWN_LANDMARK, unknownLandmarks);
    return b;
  }

  /** Whether the coordinator's predictions from the report's coordinate confirm its (known) servers' RTTs. */
  private boolean locatedByServers(ClientReportRecord.Builder b, Coordinate position, ServingState s) {
    Map<String, Double> rtts = new HashMap<>();
    for (ServerMeasurement m : b.getServersList()) {
      if (!m.getTimedOut()) rtts.put(Endpoints.key(m.getEndpoint()), m.getRttUs() / 1000.0);
    }
    return screen.locatedByServers(position, rtts, key -> {
      ServerCoordinate c = s.servers().get(key);
      if (c == null || !c.hasCoordinate()) return null;
      try {
        return CoordinateCodec.fromProto(c.getCoordinate(), s.dimensions(), key);
      } catch (IllegalArgumentException e) {
        return null;
      }
    }, Double.NaN);
  }

  private static void checkRtt(int us, String field) {
    long v = Integer.toUnsignedLong(us);
    if (v < 1 || v > RttBound.MAX_US) {
      throw new Rejected(Rejection.BAD_RTT, field + " must be 1-" + RttBound.MAX_US + " us, got " + v);
    }
  }

  private static Timestamp timestamp(long ms) {
    return Timestamp.newBuilder().setSeconds(Math.floorDiv(ms, 1000)).setNanos((int) Math.floorMod(ms, 1000) * 1_000_000).build();
  }

  /** One report to publish, and its caller's answer once Kafka has it (or has failed). */
  private final class Send implements Runnable {
    private final ProducerRecord<byte[], byte[]> record;
    private final CompletableFuture<ReportMeasurementsResponse> done;
    private final ReportMeasurementsResponse response;

    Send(ProducerRecord<byte[], byte[]> record, CompletableFuture<ReportMeasurementsResponse> done,
        ReportMeasurementsResponse response) {
      this.record = record;
      this.done = done;
      this.response = response;
    }

    @Override
    public void run() {
      try {
        producer.send(record, (md, e) -> {
          if (e != null) fail(e);
          else {
            accepted.incrementAndGet();
            done.complete(response);
          }
        });
      } catch (RuntimeException e) {
        fail(e);
      }
    }

    void fail(Throwable e) {
      publishFailures.incrementAndGet();
      done.completeExceptionally(e);
    }
  }

  /** Stops sending; reports still queued are answered UNAVAILABLE. */
  @Override
  public void close() {
    for (Runnable r : sender.shutdownNow()) {
      if (r instanceof Send send) send.fail(new IllegalStateException("coordinator stopping"));
    }
  }
}
