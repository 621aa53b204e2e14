package dev.reed.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.reed.coordinates.Coordinate;
import dev.reed.probe.ProbeTarget;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.ReportMeasurementsRequest;
import dev.reed.proto.v1.ServerMeasurement;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Reporting what a discovery measured against an in-process fake coordinator: what the
 * report carries is exactly what the prober measured, it goes out after the discovery returned and
 * never delays or fails it, and the page requests carry the calibration's landmark RTTs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReportMeasurementsTest {
  private static final int CALIB = 8;

  private FakeWorld world;
  private FakeReedService service;
  private Server server;
  private ManagedChannel channel;
  private FakeProber prober;

  @BeforeEach
  void setUp() throws IOException {
    world = FakeWorld.random(300, 42);
    service = new FakeReedService(world);
    String name = InProcessServerBuilder.generateName();
    server = InProcessServerBuilder.forName(name).addService(service).build().start();
    channel = InProcessChannelBuilder.forName(name).build();
    prober = new FakeProber(world, 0);
  }

  @AfterEach
  void tearDown() {
    CountDownLatch hold = service.holdReports;
    if (hold != null) hold.countDown();
    prober.close();
    channel.shutdownNow();
    server.shutdownNow();
  }

  private ReedClient.Builder builder() {
    return ReedClient.builder().channel(channel, "in-process").prober(prober).rate(20_000)
        .rpcDeadline(Duration.ofSeconds(5)).calibrationCount(CALIB);
  }

  @Test
  void offByDefault() {
    try (ReedClient c = builder().build()) {
      c.discover(DiscoveryRequest.defaults().withStop(StopRule.first(10)));
      assertThat(c.reportStats()).isEqualTo(new ReportStats(0, 0, 0));
    }
    assertThat(service.reportRequests).isEmpty();
  }

  @Test
  void theReportCarriesExactlyWhatWasMeasured() {
    // two near servers do not answer (timeouts), one answers but is not the game asked for
    List<FakeWorld.Server> near = world.servers.stream()
        .sorted(java.util.Comparator.comparingDouble(world::rttMs)).limit(6).toList();
    for (int i : new int[] {1, 3}) {
      FakeWorld.Server s = near.get(i);
      world.servers.set(world.servers.indexOf(s), new FakeWorld.Server(s.address(), s.protocol(), s.coordinate(), s.info(), false));
    }
    FakeWorld.Server other = near.get(4);
    prober.replyOverride.put(other.key(), other.info().toBuilder().setGame("other-game").build());

    DiscoveryResult r;
    ReportStats stats;
    try (ReedClient c = builder().reportMeasurements(true).location(48.1, 11.6).build()) {
      r = c.discover(DiscoveryRequest.defaults().withStop(StopRule.first(10)));
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> c.reportStats().reported() == 1);
      stats = c.reportStats();
    }
    assertThat(service.reportRequests).hasSize(1);
    ReportMeasurementsRequest report = service.reportRequests.getFirst();
    assertThat(stats).isEqualTo(new ReportStats(1, 0, report.getServersCount()));

    // the client's calibrated coordinate (what its first page was asked from) and the location it stated
    assertThat(report.getClient()).isEqualTo(service.pageRequests.getFirst().getClient());
    Coordinate position = r.position().coordinate();
    assertThat(position.distanceTo(CoordinatorClient.coordinate(report.getClient(), 2))).isLessThan(5);
    assertThat(report.getLocation().getLatitudeDeg()).isEqualTo(48.1);
    assertThat(report.getLocation().getLongitudeDeg()).isEqualTo(11.6);
    assertThat(report.hasDiscoveryStartTime()).isTrue();

    // every probe the prober sent: beacons as landmark RTTs, game servers once each, RTT or timeout
    Map<String, Double> beaconRtt = new LinkedHashMap<>();
    Map<String, ServerMeasurement> expected = new LinkedHashMap<>();
    synchronized (prober.sent) {
      for (ProbeTarget t : prober.sent) {
        FakeWorld.Server s = world.find(t.address());
        int beacon = world.calibration.indexOf(s);
        if (beacon >= 0) {
          beaconRtt.put("lm" + beacon, world.rttMs(s));
        } else {
          ServerMeasurement.Builder m = ServerMeasurement.newBuilder().setEndpoint(Endpoints.of(t.address()));
          if (s.answers()) m.setRttUs((int) Math.round(world.rttMs(s) * 1000));
          else m.setTimedOut(true);
          expected.putIfAbsent(s.key(), m.build());
        }
      }
    }
    assertThat(beaconRtt).isNotEmpty();
    Map<String, Double> reportedBeacons = new HashMap<>();
    for (LandmarkRtt l : report.getLandmarkRttsList()) reportedBeacons.put(l.getLandmarkId(), l.getRttUs() / 1000.0);
    assertThat(reportedBeacons.keySet()).isEqualTo(beaconRtt.keySet());
    beaconRtt.forEach((id, ms) -> assertThat(reportedBeacons.get(id)).isCloseTo(ms, within(0.001)));

    assertThat(report.getServersList()).containsExactlyInAnyOrderElementsOf(expected.values());
    assertThat(report.getServersList().stream().filter(ServerMeasurement::getTimedOut).count()).isEqualTo(2);
    assertThat(report.getServersList()).anySatisfy(m -> {
      assertThat(Endpoints.key(m.getEndpoint())).isEqualTo(other.key());
      assertThat(m.getRttUs()).as("a reply outside the filter still measured an RTT").isPositive();
    });
    assertThat(report.getServersList()).noneSatisfy(m ->
        assertThat(world.calibration.stream().map(FakeWorld.Server::key)).contains(Endpoints.key(m.getEndpoint())));
  }

  @Test
  void theReportGoesOutAfterTheResultAndNeverDelaysIt() throws Exception {
    service.holdReports = new CountDownLatch(1); // the coordinator sits on the report
    try (ReedClient c = builder().reportMeasurements(true).rpcDeadline(Duration.ofSeconds(20)).build()) {
      DiscoveryResult r = c.discover(DiscoveryRequest.defaults().withStop(StopRule.first(10)));
      // the coordinator holds the report until released below: a discovery that waited for it would
      // return only once it had failed at its deadline
      assertThat(c.reportStats()).as("the discovery did not wait for its report").isEqualTo(new ReportStats(0, 0, 0));
      assertThat(r.servers()).hasSizeGreaterThanOrEqualTo(10);
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> service.reportRequests.size() == 1);
      assertThat(c.reportStats().reported()).as("still in flight").isZero();
      service.holdReports.countDown();
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> c.reportStats().reported() == 1);
      // the next discovery reports again: one report per discovery
      c.discover(DiscoveryRequest.defaults().withStop(StopRule.first(5)));
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> c.reportStats().reported() == 2);
    }
    assertThat(service.reportRequests).hasSize(2);
  }

  @Test
  void aFailedReportIsCountedNeverThrown() {
    service.failReports = Status.UNIMPLEMENTED.withDescription("an older coordinator");
    try (ReedClient c = builder().reportMeasurements(true).build()) {
      for (int i = 0; i < 3; i++) {
        DiscoveryResult r = c.discover(DiscoveryRequest.defaults().withStop(StopRule.first(10)));
        assertThat(r.method()).isEqualTo(DiscoveryResult.Method.REED);
        assertThat(r.servers()).hasSizeGreaterThanOrEqualTo(10);
      }
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> c.reportStats().failed() == 3);
      assertThat(c.reportStats().reported()).isZero();
    }
  }

  @Test
  void closeWaitsForAReportInFlight() {
    service.holdReports = new CountDownLatch(1);
    ReedClient c = builder().reportMeasurements(true).build();
    c.discover(DiscoveryRequest.defaults().withStop(StopRule.first(10)));
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> service.reportRequests.size() == 1);
    Thread closer = Thread.currentThread();
    // released only once close is waiting, so a close that did not wait finds the report unanswered
    Thread release = Thread.ofPlatform().start(() -> {
      Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10))
          .until(() -> closer.getState() == Thread.State.WAITING || closer.getState() == Thread.State.TIMED_WAITING);
      service.holdReports.countDown();
    });
    c.close();
    assertThat(c.reportStats().reported()).as("close waited for the answer").isEqualTo(1);
    release.interrupt();
  }

  @Test
  void pageRequestsCarryTheCalibrationRttsToTheBeacons() {
    try (ReedClient c = builder().build()) {
      c.discover(DiscoveryRequest.defaults().withStop(StopRule.first(10)));
    }
    assertThat(service.pageRequests).isNotEmpty();
    List<LandmarkRtt> sent = service.pageRequests.getFirst().getLandmarkRttsList();
    assertThat(sent).isNotEmpty();
    for (LandmarkRtt l : sent) {
      FakeWorld.Server beacon = world.calibration.get(Integer.parseInt(l.getLandmarkId().substring(2)));
      assertThat(l.getRttUs() / 1000.0).isCloseTo(world.rttMs(beacon), within(0.001));
    }
  }

  @Test
  void theReportFactorScalesTheCoordinatePrediction() {
    // clients near this one reported the nearest server 3x slower than the coordinates say
    FakeWorld.Server nearest = world.servers.stream().min(java.util.Comparator.comparingDouble(world::rttMs)).orElseThrow();
    service.reportFactors.put(nearest.key(), 3.0);
    DiscoveryResult r;
    try (ReedClient c = builder().build()) {
      r = c.discover(DiscoveryRequest.defaults().withStop(StopRule.first(20)).withReposition(false));
    }
    DiscoveredServer found = r.servers().stream().filter(s -> s.key().equals(nearest.key())).findFirst().orElseThrow();
    assertThat(found.predictedMs()).isCloseTo(3 * world.rttMs(nearest), within(0.05 * world.rttMs(nearest) + 0.5));
    DiscoveredServer unaffected = r.servers().stream().filter(s -> !s.key().equals(nearest.key())).findFirst().orElseThrow();
    assertThat(unaffected.predictedMs()).isCloseTo(unaffected.rttMs(), within(1.5));
  }
}
