package dev.reed.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.reed.coordinator.catalog.MasterCrawler;
import dev.reed.geo.Asn;
import dev.reed.geo.IpRangeCsvWriter;
import dev.reed.geo.Location;
import dev.reed.proto.Endpoints;
import dev.reed.runtime.KafkaClientProperties;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.proto.v1.SnapshotServiceGrpc;
import dev.reed.proto.v1.StreamSnapshotRequest;
import dev.reed.proto.v1.StreamSnapshotResponse;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import dev.reed.testbed.kafka.KafkaExtension;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a running coordinator gives analysts and operators: snapshot files, the live snapshot stream, metrics, master lists;
 * it runs with a {@code --kafka-config} file and with location and AS databases.
 */
@Tag("integration")
class CoordinatorOutputsTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  @TempDir Path dir;

  @Test
  void snapshotsMetricsAndMasterListsOfARunningCoordinator() throws Exception {
    String bootstrap = KAFKA.broker().bootstrapServers();
    SyntheticWorld world = new SyntheticWorld(20);
    try (KafkaProducer<byte[], byte[]> p = SyntheticWorld.producer(bootstrap)) {
      world.announce(p, 1);
      p.flush();
      for (int r = 1; r <= 2; r++) world.round(p, r);
    }
    Path targets = dir.resolve("targets.txt");
    StringBuilder t = new StringBuilder();
    for (int i = 0; i < 20; i++) t.append("a2s ").append(Endpoints.key(SyntheticWorld.target(i))).append('\n');
    Files.writeString(targets, t);
    Path snapshots = dir.resolve("snapshots");
    Path geoip = dir.resolve("city.csv");
    Path asn = dir.resolve("asn.csv");
    IpRangeCsvWriter.writeLocations(geoip, Map.of(Endpoints.literal("203.0.113.7"), Location.of(50.11, 8.68)));
    IpRangeCsvWriter.writeAsns(asn, Map.of(Endpoints.literal("203.0.113.7"), new Asn(64500, "Example")));
    // --kafka-config: harmless client settings reach the producer, admin client and every consumer
    Path kafkaConfig = dir.resolve("client.properties");
    Files.writeString(kafkaConfig, "client.dns.lookup=use_all_dns_ips\nmetadata.max.age.ms=60000\n");
    CoordinatorConfig config = CoordinatorConfig.builder(bootstrap).loopbackEphemeral().metricsPort(0).dimensions(2)
        .kafkaProperties(KafkaClientProperties.read(kafkaConfig, CoordinatorConfig.KAFKA_OWNED_KEYS, "coordinator"))
        .roundInterval(Duration.ofMillis(300)).snapshotDir(snapshots).snapshotEvery(Duration.ofSeconds(1)).snapshotKeep(2)
        .targetsFile(targets).geo(List.of(geoip), List.of(asn)).build();
    try (Coordinator c = Coordinator.start(config)) {
      // --geoip / --asn: opened at start, the locator is there for whoever positions with it
      assertThat(c.locator().locate(Endpoints.literal("203.0.113.7"))).contains(Location.of(50.11, 8.68));
      assertThat(c.locator().asn(Endpoints.literal("203.0.113.7"))).contains(new Asn(64500, "Example"));
      assertThat(c.locator().locate(Endpoints.literal("127.0.2.1"))).isEmpty();
      await().atMost(Duration.ofSeconds(60)).until(() -> c.servingState().servers().size() == 20
          && c.servingState().targets().size() == 20);

      // snapshot files: the newest two generations, 20 rows, JSON summary
      await().atMost(Duration.ofSeconds(30)).until(() -> csvs(snapshots).size() == 2 && rows(csvs(snapshots).getLast()) == 21);
      // one more generation written: still the newest two only
      Path second = csvs(snapshots).getLast();
      await().atMost(Duration.ofSeconds(30)).until(() -> csvs(snapshots).getLast().compareTo(second) > 0);
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(csvs(snapshots)).hasSize(2));
      Path csv = csvs(snapshots).getLast();
      String header = readGz(csv).getFirst();
      // with a location database the files carry the servers' locations too (none of these loopback targets is located)
      assertThat(header).isEqualTo("address,protocol,game,x0,x1,height_ms,relative_error,landmarks_used,age_s,"
          + "integrity,violating_pairs,lat,lon,location_source,country,asn,geo_excess_ms");
      Path json = Path.of(csv.toString().replace(".csv.gz", ".json"));
      String summary = Files.readString(json);
      assertThat(summary).contains("\"dimensions\": 2").contains("\"servers\": 20").contains("\"landmarks\": 5")
          .contains("\"p50\"").contains("\"id\": \"lm-0\"");

      // the live snapshot stream (./reed snapshot reads it; cli's SnapshotCommandTest)
      ManagedChannel channel = Grpc.newChannelBuilder("127.0.0.1:" + c.grpcAddress().getPort(),
          InsecureChannelCredentials.create()).build();
      try {
        Iterator<StreamSnapshotResponse> stream = SnapshotServiceGrpc.newBlockingStub(channel)
            .withDeadlineAfter(30, TimeUnit.SECONDS).streamSnapshot(StreamSnapshotRequest.getDefaultInstance());
        assertThat(stream.next().getHeader().getServerCount()).isEqualTo(20);
        List<ServerCoordinate> streamed = new ArrayList<>();
        stream.forEachRemaining(r -> streamed.addAll(r.getChunk().getServersList()));
        assertThat(streamed).hasSize(20);
        assertThat(Endpoints.key(streamed.getFirst().getEndpoint())).startsWith("127.0.2.");
        assertThat(streamed.getFirst().getServerInfo().getGame()).isEqualTo("baseoa");
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }

      // metrics and health
      HttpClient http = HttpClient.newHttpClient();
      String base = "http://127.0.0.1:" + c.metricsAddress().getPort();
      // every sample is counted once it is consumed; on a loaded machine the index may be complete
      // (20 servers from their first samples) before the last of the 200 is in
      await().atMost(Duration.ofSeconds(30)).until(() -> http.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
          HttpResponse.BodyHandlers.ofString()).body().contains("reed_ingest_samples_total 200.0"));
      HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(metrics.body()).contains("reed_ingest_samples_total 200.0").contains("reed_index_servers 20.0")
          .contains("reed_leader 1.0").contains("reed_rounds_total");
      // the chunks the index's templates and the published coordinates live in: held >= live > 0
      for (String chunks : List.of("reed_index_template", "reed_positioning")) {
        String held = chunks.equals("reed_positioning") ? "reed_positioning_held_bytes" : "reed_index_template_bytes";
        double heldBytes = gauge(metrics.body(), held);
        double liveBytes = gauge(metrics.body(), chunks + "_live_bytes");
        assertThat(liveBytes).as(chunks).isPositive();
        assertThat(heldBytes).as(chunks).isGreaterThanOrEqualTo(liveBytes);
        assertThat(metrics.body()).contains("# HELP " + held + " bytes the ");
      }
      assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "/healthz")).build(),
          HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);

      // the Valve master front end lists the catalog
      Set<InetSocketAddress> listed = new MasterCrawler(Duration.ofSeconds(2), Duration.ZERO, 10)
          .crawl(MasterCrawler.Master.parse("valve 127.0.0.1:" + c.valveMasterAddress().getPort()));
      assertThat(listed).hasSize(20);
    }
  }

  /** A gauge's value in a Prometheus text exposition (no labels). */
  static double gauge(String exposition, String name) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^" + name + " (\\S+)$").matcher(exposition);
    assertThat(m.find()).as("%s on /metrics", name).isTrue();
    return Double.parseDouble(m.group(1));
  }

  static List<Path> csvs(Path dir) throws Exception {
    if (!Files.isDirectory(dir)) return List.of();
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().matches("snapshot-\\d+\\.csv\\.gz")).sorted().toList();
    }
  }

  static List<String> readGz(Path p) throws Exception {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(p)),
        StandardCharsets.UTF_8))) {
      return r.lines().toList();
    }
  }

  static int rows(Path p) throws Exception {
    return readGz(p).size();
  }
}
