package dev.reed.coordinator.position;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.coordinator.ingest.TargetWindows;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * How long a positioning round takes (it runs on the ingest thread): 36,000 targets x 16
 * landmarks in 4-D, once for a new landmark epoch (every target re-fitted, warm-started) and once
 * incrementally with 10 % of the targets changed. Kafka's in-memory MockProducer stands in for the
 * broker: this measures the fitting, not the network.
 *
 * <pre>
 * java -cp "$(cat coordinator/target/bench.cp):coordinator/target/test-classes:coordinator/target/classes" \
 *   dev.reed.coordinator.position.PositioningRoundHarness [targets=36000]
 * </pre>
 */
public final class PositioningRoundHarness {
  private PositioningRoundHarness() {}

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 36_000;
    int landmarks = 16;
    int d = 4;
    SplittableRandom r = new SplittableRandom(3);
    double[][] lp = new double[landmarks][d];
    List<ServingState.Anchor> anchors = new ArrayList<>();
    for (int l = 0; l < landmarks; l++) {
      for (int k = 0; k < d; k++) lp[l][k] = r.nextDouble(-150, 150);
      anchors.add(new ServingState.Anchor("lm-" + l, new Coordinate(lp[l], 0)));
    }
    TargetWindows windows = new TargetWindows(8, n);
    double[][] tp = new double[n][];
    windows.setNow(System.currentTimeMillis());
    for (int t = 0; t < n; t++) {
      double[] p = new double[d];
      for (int k = 0; k < d; k++) p[k] = r.nextDouble(-150, 150);
      tp[t] = p;
      Endpoint e = Endpoint.newBuilder().setIp("10." + (t >> 16) + "." + ((t >> 8) & 255) + "." + (t & 255)).setPort(27015).build();
      String key = dev.reed.proto.Endpoints.key(e);
      for (int l = 0; l < landmarks; l++) {
        double dist = 0;
        for (int k = 0; k < d; k++) dist += (p[k] - lp[l][k]) * (p[k] - lp[l][k]);
        int us = (int) Math.round((Math.sqrt(dist) + 2 + r.nextDouble(3)) * 1000);
        windows.add(key, RttSample.newBuilder().setLandmarkId("lm-" + l).setRound(1).setTarget(e)
            .setProtocol(GameProtocol.GAME_PROTOCOL_A2S).setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs(us).build(), 0);
      }
    }
    MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    TargetPositioning positioning = new TargetPositioning(new CoordinateConfig(d, false), producer, Clock.systemUTC(),
        Duration.ofMinutes(10), 0.5,
        new HostIntegrity(new dev.reed.coordinates.integrity.ServerConsistency(
            dev.reed.coordinates.integrity.IntegrityConfig.defaults())));
    ServingState state = new ServingState(dev.reed.coordinates.ranking.RankingIndex.of(List.of()), Map.of(), Map.of(),
        Map.of(), anchors, Map.of(), Map.of(), 1, Instant.now(), d, false);
    long t0 = System.nanoTime();
    TargetPositioning.Result full = positioning.run(windows, state, Duration.ofHours(1));
    double fullS = (System.nanoTime() - t0) / 1e9;
    System.out.printf("new epoch: fitted %d targets in %.2f s (%.0f us/target), median relative error %.3f%n",
        full.fitted(), fullS, fullS * 1e6 / full.fitted(), full.medianRelativeError());
    producer.clear();
    for (int t = 0; t < n; t += 10) {
      Endpoint e = Endpoint.newBuilder().setIp("10." + (t >> 16) + "." + ((t >> 8) & 255) + "." + (t & 255)).setPort(27015).build();
      double dist = 0;
      for (int k = 0; k < d; k++) dist += (tp[t][k] - lp[0][k]) * (tp[t][k] - lp[0][k]);
      int us = (int) Math.round((Math.sqrt(dist) + 1.5) * 1000); // a slightly better minimum this round
      windows.add(dev.reed.proto.Endpoints.key(e), RttSample.newBuilder().setLandmarkId("lm-0").setRound(2).setTarget(e)
          .setProtocol(GameProtocol.GAME_PROTOCOL_A2S).setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs(us).build(), 0);
    }
    long t1 = System.nanoTime();
    TargetPositioning.Result inc = positioning.run(windows, state, Duration.ofHours(1));
    double incS = (System.nanoTime() - t1) / 1e9;
    System.out.printf("incremental: fitted %d changed targets in %.2f s (%.0f us/target), published %d%n",
        inc.fitted(), incS, incS * 1e6 / Math.max(1, inc.fitted()), inc.published());
  }
}
