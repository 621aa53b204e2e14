package dev.reed.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import dev.reed.coordinator.api.EachCallDeadline;
import dev.reed.coordinator.reports.ReportLearning;
import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.CalibrationMeasurement;
import dev.reed.proto.v1.ClientReportRecord;
import dev.reed.proto.v1.Coordinate;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.LocateRequest;
import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.proto.v1.ReportDropReason;
import dev.reed.proto.v1.ReportMeasurementsRequest;
import dev.reed.proto.v1.ReportMeasurementsResponse;
import dev.reed.proto.v1.ServerMeasurement;
import dev.reed.proto.v1.StreamOrderedServersRequest;
import dev.reed.testbed.kafka.KafkaExtension;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client reports through a real coordinator and Kafka: ReportMeasurements over gRPC with
 * API keys and a trusted proxy's X-Forwarded-For (so each reporter has its own address), validation
 * and its counters, the record on reed.client-reports (no address in it), learning on the replica
 * and the report_factor on later pages, a flood from one source, an undecodable record.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("integration")
class ClientReportsTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  static final String HONEST = "honest-key-0000000000";
  static final String LIAR = "liar-key-000000000000";
  static final String SLOW = "slow-key-000000000000";
  static final double[] CLIENT = {150, 60};

  @TempDir static Path dir;
  SyntheticWorld world;
  Coordinator coordinator;
  ManagedChannel channel;
  Coordinate located;
  Path reportKey;

  @BeforeAll
  void start() throws Exception {
    String bootstrap = KAFKA.broker().bootstrapServers();
    world = new SyntheticWorld(30);
    try (KafkaProducer<byte[], byte[]> p = SyntheticWorld.producer(bootstrap)) {
      world.announce(p, 1);
      p.flush();
      for (int r = 1; r <= 3; r++) world.round(p, r);
    }
    Path keys = Files.writeString(dir.resolve("keys"), String.join("\n", HONEST + "-1 1000", HONEST + "-2 1000",
        HONEST + "-3 1000", LIAR + " 1000", SLOW + " 0.2") + "\n");
    // one report key for every replica, as components/report-key gives them: a reporter's votes are
    // grouped alike whichever replica takes its reports
    reportKey = Files.writeString(dir.resolve("report-key"), "a-report-key-shared-by-the-replicas\n");
    coordinator = Coordinator.start(CoordinatorPipelineTest.config(bootstrap).toBuilder().apiKeysFile(keys)
        .trustedProxies(List.of("127.0.0.1/32")).roundInterval(Duration.ofSeconds(1)).reportKeyFile(reportKey).build());
    await().atMost(Duration.ofSeconds(60)).until(() -> coordinator.servingState().servers().size() == 30
        && coordinator.servingState().servers().values().stream().allMatch(s -> s.getLandmarkRttsCount() == 5));
    channel = NettyChannelBuilder.forAddress(coordinator.grpcAddress()).usePlaintext().build();
    LocateRequest.Builder lr = LocateRequest.newBuilder();
    for (int i = 0; i < world.landmarks.length; i++) {
      lr.addMeasurements(CalibrationMeasurement.newBuilder().setEndpoint(SyntheticWorld.beacon(i))
          .setRttUs(us(SyntheticWorld.distance(CLIENT, world.landmarks[i]))));
    }
    located = stub(HONEST + "-1", "203.0.113.5").locate(lr.build()).getCoordinate();
  }

  @AfterAll
  void stop() throws Exception {
    if (channel != null) channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    if (coordinator != null) coordinator.close();
  }

  static int us(double ms) {
    return (int) Math.round(ms * 1000);
  }

  ReedServiceGrpc.ReedServiceBlockingStub stub(String apiKey, String forwardedFor) {
    return stub(channel, apiKey, forwardedFor);
  }

  static ReedServiceGrpc.ReedServiceBlockingStub stub(ManagedChannel channel, String apiKey, String forwardedFor) {
    Metadata h = new Metadata();
    if (apiKey != null) h.put(Metadata.Key.of("x-api-key", Metadata.ASCII_STRING_MARSHALLER), apiKey);
    if (forwardedFor != null) h.put(Metadata.Key.of("x-forwarded-for", Metadata.ASCII_STRING_MARSHALLER), forwardedFor);
    return ReedServiceGrpc.newBlockingStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h),
        new EachCallDeadline(20));
  }

  List<LandmarkRtt> landmarkRtts() {
    List<LandmarkRtt> out = new ArrayList<>();
    for (int i = 0; i < world.landmarks.length; i++) {
      out.add(LandmarkRtt.newBuilder().setLandmarkId(SyntheticWorld.landmarkId(i))
          .setRttUs(us(SyntheticWorld.distance(CLIENT, world.landmarks[i]))).build());
    }
    return out;
  }

  /** The first page for a fresh client at CLIENT, by server key. */
  Map<String, RankedServer> page() {
    return page(channel);
  }

  /** The same, from the replica behind {@code ch}. */
  Map<String, RankedServer> page(ManagedChannel ch) {
    Map<String, RankedServer> out = new HashMap<>();
    for (RankedServer s : stub(ch, HONEST + "-2", "192.0.2.80").getOrderedServers(GetOrderedServersRequest.newBuilder()
        .setClient(located).addAllLandmarkRtts(landmarkRtts()).setPageSize(50).build()).getServersList()) {
      out.put(Endpoints.key(s.getEndpoint()), s);
    }
    return out;
  }

  /** The factor one reporting network may apply for a reported {@code ratio} (CorrectionBound's defaults). */
  static double bounded(double ratio, int predictedUs) {
    double ms = predictedUs / 1000.0;
    return Math.min(ratio, 1 + (5 + 0.1 * ms) / ms);
  }

  ReportMeasurementsRequest.Builder report() {
    return ReportMeasurementsRequest.newBuilder().setClient(located).addAllLandmarkRtts(landmarkRtts());
  }

  static ServerMeasurement measured(String key, int rttUs) {
    return ServerMeasurement.newBuilder().setEndpoint(Endpoints.parse(key)).setRttUs(rttUs).build();
  }

  double metric(String line) {
    for (String l : coordinator.meterRegistry().scrape().split("\n")) {
      if (l.startsWith(line + " ")) return Double.parseDouble(l.substring(line.length() + 1).strip());
    }
    throw new AssertionError("no metric " + line);
  }

  /**
   * The page's servers by ascending prediction, the n-th of those no report has corrected yet (the
   * tests share one coordinator and run in any order).
   */
  String nth(Map<String, RankedServer> page, int n) {
    return page.values().stream().filter(s -> s.getReportFactor() == 0)
        .sorted(java.util.Comparator.comparingInt(RankedServer::getPredictedRttUs)).skip(n)
        .findFirst().map(s -> Endpoints.key(s.getEndpoint())).orElseThrow();
  }

  void assertRejected(ReportMeasurementsRequest req, String reason, String message) {
    double before = metric("reed_client_reports_rejected_total{reason=\"" + reason + "\"}");
    assertThatThrownBy(() -> stub(HONEST + "-1", "203.0.113.5").reportMeasurements(req))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
          assertThat(e.getStatus().getDescription()).contains(message);
        });
    assertThat(metric("reed_client_reports_rejected_total{reason=\"" + reason + "\"}")).isEqualTo(before + 1);
  }

  @Test
  void invalidReportsAreRefusedWithTheReasonAndCounted() {
    String known = Endpoints.key(SyntheticWorld.target(0));
    assertRejected(report().clearClient().addServers(measured(known, 10_000)).build(), "missing_coordinate",
        "client (the coordinate) is required");
    assertRejected(report().setClient(located.toBuilder().setComponents(0, Double.NaN)).addServers(measured(known, 10_000))
        .build(), "bad_coordinate", "not finite");
    assertRejected(report().addServers(measured(known, 0)).build(), "bad_rtt", "servers[0].rtt_us must be 1-998999 us, got 0");
    assertRejected(report().addServers(measured(known, -1)).build(), "bad_rtt", "got 4294967295");
    assertRejected(report().addServers(measured(known, 999_000)).build(), "bad_rtt", "got 999000");
    assertRejected(report().addServers(measured("198.51.100.1:27960", 10_000)).build(), "unknown_servers",
        "none of the 1 is a server this coordinator ranks");
    assertRejected(report().addServers(measured(known, 10_000)).addServers(measured(known, 11_000)).build(), "duplicate",
        "twice");
    ReportMeasurementsRequest.Builder big = report();
    for (int i = 0; i < 513; i++) big.addServers(measured("10.0." + i / 250 + "." + (i % 250 + 1) + ":27960", 10_000));
    assertRejected(big.build(), "too_many_servers", "at most 512, got 513");
    assertRejected(report().build(), "no_servers", "at least one server");
    ReportMeasurementsRequest.Builder huge = report().clearLandmarkRtts().addServers(measured(known, 10_000));
    for (int i = 0; i < 40; i++) {
      huge.addLandmarkRtts(LandmarkRtt.newBuilder().setLandmarkId("x".repeat(2000) + i).setRttUs(10_000));
    }
    assertRejected(huge.build(), "too_large", "at most 65536");

    // an unknown server among known ones is dropped and said so; the rest is accepted
    ReportMeasurementsResponse ok = stub(HONEST + "-3", "203.0.113.9").reportMeasurements(report()
        .addServers(measured("198.51.100.1:27960", 10_000)).addServers(ServerMeasurement.newBuilder()
            .setEndpoint(SyntheticWorld.target(29)).setTimedOut(true)).build());
    assertThat(ok.getAccepted()).isEqualTo(1);
    assertThat(ok.getDroppedList()).singleElement().satisfies(d -> {
      assertThat(d.getReason()).isEqualTo(ReportDropReason.REPORT_DROP_REASON_UNKNOWN_SERVER);
      assertThat(d.getCount()).isEqualTo(1);
    });
  }

  @Test
  void aMissingKeyOrAKeyOverItsRateIsRefusedAndCounted() {
    ReportMeasurementsRequest req = report().addServers(measured(Endpoints.key(SyntheticWorld.target(1)), 10_000)).build();
    double unauthenticated = metric("reed_client_reports_rejected_total{reason=\"unauthenticated\"}");
    assertThatThrownBy(() -> stub(null, null).reportMeasurements(req)).isInstanceOfSatisfying(StatusRuntimeException.class,
        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
    assertThat(metric("reed_client_reports_rejected_total{reason=\"unauthenticated\"}")).isEqualTo(unauthenticated + 1);
    double limited = metric("reed_client_reports_rejected_total{reason=\"rate_limited\"}");
    stub(SLOW, "203.0.113.77").reportMeasurements(req); // the burst: one call
    assertThatThrownBy(() -> stub(SLOW, "203.0.113.77").reportMeasurements(req))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
          assertThat(e.getStatus().getDescription()).contains("rate limit");
        });
    assertThat(metric("reed_client_reports_rejected_total{reason=\"rate_limited\"}")).isEqualTo(limited + 1);
  }

  @Test
  void anAcceptedReportIsPublishedWithoutTheAddressAndLearnedForClientsNearTheReporter() throws Exception {
    Map<String, RankedServer> before = page();
    String reported = nth(before, 2);
    long learned = coordinator.reportLearning().reports();
    int predicted = before.get(reported).getPredictedRttUs();
    ReportMeasurementsResponse r = stub(HONEST + "-1", "203.0.113.5").reportMeasurements(report()
        .setDiscoveryStartTime(SyntheticWorld.ts(java.time.Instant.now().minusSeconds(2)))
        .addServers(measured(reported, (int) (1.3 * predicted))).build());
    assertThat(r.getAccepted()).isEqualTo(1);
    assertThat(r.getDroppedList()).isEmpty();
    await().atMost(Duration.ofSeconds(20)).until(() -> coordinator.reportLearning().reports() > learned);

    Map<String, RankedServer> after = page();
    assertThat(after.get(reported).getReportFactor()).as("the reported server, from the reporter's site, as far as "
        + "one network may move it").isCloseTo(bounded(1.3, predicted), within(0.05));
    after.forEach((key, s) -> {
      if (!key.equals(reported)) {
        assertThat(s.getReportFactor()).as("%s, not reported here", key).isEqualTo(before.get(key).getReportFactor());
      }
    });
    assertThat(after.values()).filteredOn(s -> s.getReportFactor() == 0).as("servers nobody reported").isNotEmpty();
    // the stream carries it too
    var stream = stub(HONEST + "-2", "192.0.2.80").streamOrderedServers(StreamOrderedServersRequest.newBuilder()
        .setClient(located).addAllLandmarkRtts(landmarkRtts()).setPageSize(50).setMaxServers(50).build());
    double streamed = 0;
    while (stream.hasNext()) {
      for (RankedServer s : stream.next().getServersList()) {
        if (Endpoints.key(s.getEndpoint()).equals(reported)) streamed = s.getReportFactor();
      }
    }
    assertThat(streamed).isEqualTo(after.get(reported).getReportFactor());

    // privacy: what was published holds neither the client's address nor its prefix, only keyed hashes
    List<byte[]> records = reportRecords();
    assertThat(records).isNotEmpty();
    for (byte[] v : records) {
      String text = new String(v, StandardCharsets.ISO_8859_1);
      assertThat(text).doesNotContain("203.0.113").doesNotContain("127.0.0.1").doesNotContain("192.0.2");
      assertThat(indexOf(v, new byte[] {(byte) 203, 0, 113})).as("the raw address bytes").isNegative();
      ClientReportRecord rec = ClientReportRecord.parseFrom(v);
      assertThat(rec.getGroupKeysList()).isNotEmpty()
          .allSatisfy(g -> assertThat(g).matches("[pak]:[0-9a-f]{32}"));
    }
  }

  /**
   * A serving replica (--serve-only) takes reports as an ingesting one does: it checks and publishes
   * them, and both replicas learn them from the reports topic, so a client near the reporter sees the
   * correction whichever replica answers its next page.
   */
  @Test
  void aServingReplicaTakesReportsAndEveryReplicaLearnsThem() throws Exception {
    String bootstrap = KAFKA.broker().bootstrapServers();
    Path keys = dir.resolve("keys");
    try (Coordinator serving = Coordinator.start(CoordinatorPipelineTest.config(bootstrap).toBuilder().apiKeysFile(keys)
        .trustedProxies(List.of("127.0.0.1/32")).roundInterval(Duration.ofSeconds(1)).reportKeyFile(reportKey)
        .identity("serving").serveOnly(true).metricsPort(0).build())) {
      ManagedChannel servingChannel = NettyChannelBuilder.forAddress(serving.grpcAddress()).usePlaintext().build();
      try {
        await().atMost(Duration.ofSeconds(60)).until(() -> serving.servingState().servers().size() == 30);
        Map<String, RankedServer> before = page(servingChannel);
        String reported = nth(before, 4);
        long learnedHere = serving.reportLearning().reports();
        long learnedThere = coordinator.reportLearning().reports();
        int predicted = before.get(reported).getPredictedRttUs();
        ReportMeasurementsResponse r = stub(servingChannel, HONEST + "-3", "203.0.113.7").reportMeasurements(report()
            .setDiscoveryStartTime(SyntheticWorld.ts(java.time.Instant.now().minusSeconds(2)))
            .addServers(measured(reported, (int) (1.4 * predicted))).build());
        assertThat(r.getAccepted()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(20)).until(() -> serving.reportLearning().reports() > learnedHere
            && coordinator.reportLearning().reports() > learnedThere);
        double expected = bounded(1.4, predicted);
        assertThat(page(servingChannel).get(reported).getReportFactor()).as("on the serving replica").isCloseTo(expected, within(0.05));
        assertThat(page().get(reported).getReportFactor()).as("on the ingesting replica").isCloseTo(expected, within(0.05));
        assertThat(serving.targetsOwned()).as("still no share of reed.samples").isZero();
      } finally {
        servingChannel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void aFloodOfLiesFromOneKeyAndPrefixDoesNotOutvoteThreeHonestReporters() {
    Map<String, RankedServer> before = page();
    String target = nth(before, 6);
    int predicted = before.get(target).getPredictedRttUs();
    assertThat(predicted).as("far enough for 5 ms to be a lie").isGreaterThan(20_000);
    long learned = coordinator.reportLearning().reports();
    String[] honestAddresses = {"203.0.113.20", "203.0.114.20", "203.0.115.20"};
    for (int i = 0; i < 3; i++) {
      stub(HONEST + "-" + (i + 1), honestAddresses[i]).reportMeasurements(report()
          .addServers(measured(target, (int) (1.3 * predicted))).build());
    }
    for (int i = 0; i < 100; i++) {
      stub(LIAR, "198.51.100." + (i % 200 + 1)).reportMeasurements(report().addServers(measured(target, 5_000)).build());
    }
    await().atMost(Duration.ofSeconds(30)).until(() -> coordinator.reportLearning().reports() >= learned + 103);
    assertThat(page().get(target).getReportFactor()).as("the honest median holds").isCloseTo(1.3, within(0.1));
  }

  /**
   * The bypass of a report without landmark RTTs: with none, nothing bounds its RTTs, so "5 ms to
   * every server" is refused at the door unless the coordinator's predictions from its coordinate
   * agree with its RTTs. With the landmark RTTs it is taken and dropped by the triangle bounds.
   */
  @Test
  void fiveMsToEveryServerWithoutLandmarkRttsIsRefused() {
    ReportMeasurementsRequest.Builder lie = report().clearLandmarkRtts();
    for (int i = 0; i < world.targets.length; i++) lie.addServers(measured(Endpoints.key(SyntheticWorld.target(i)), 5_000));
    assertRejected(lie.build(), "no_landmarks", "at least 3 landmarks");
    double rejected = metric("reed_client_report_rtts_dropped_total{reason=\"report_rejected\"}");
    ReportMeasurementsRequest.Builder bracketed = report();
    for (int i = 0; i < world.targets.length; i++) {
      bracketed.addServers(measured(Endpoints.key(SyntheticWorld.target(i)), 5_000));
    }
    assertThat(stub(HONEST + "-1", "203.0.113.5").reportMeasurements(bracketed.build()).getAccepted()).isEqualTo(30);
    await().atMost(Duration.ofSeconds(20)).until(() ->
        metric("reed_client_report_rtts_dropped_total{reason=\"report_rejected\"}") >= rejected + 30);
  }

  @Test
  void anUndecodableRecordIsCountedAndSkipped() throws Exception {
    double before = metric("reed_client_report_records_invalid_total{kind=\"undecodable\"}");
    long learned = coordinator.reportLearning().reports();
    try (KafkaProducer<byte[], byte[]> p = SyntheticWorld.producer(KAFKA.broker().bootstrapServers())) {
      p.send(new ProducerRecord<>(Topic.CLIENT_REPORTS.name(), "x".getBytes(), new byte[] {(byte) 0xff, 0x01, 0x02})).get();
    }
    await().atMost(Duration.ofSeconds(20))
        .until(() -> coordinator.reportLearning().invalid(ReportLearning.Invalid.UNDECODABLE) >= 1);
    assertThat(metric("reed_client_report_records_invalid_total{kind=\"undecodable\"}")).isEqualTo(before + 1);
    // the consumer goes on
    stub(HONEST + "-1", "203.0.113.5").reportMeasurements(report()
        .addServers(measured(Endpoints.key(SyntheticWorld.target(3)), 40_000)).build());
    await().atMost(Duration.ofSeconds(20)).until(() -> coordinator.reportLearning().reports() > learned);
  }

  List<byte[]> reportRecords() {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.broker().bootstrapServers());
    List<byte[]> out = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts = new ArrayList<>();
      for (var i : c.partitionsFor(Topic.CLIENT_REPORTS.name())) parts.add(new TopicPartition(i.topic(), i.partition()));
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
          if (r.value() != null && r.value().length > 3) out.add(r.value());
        }
      }
    }
    return out;
  }

  static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
      return i;
    }
    return -1;
  }
}
