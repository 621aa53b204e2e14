package dev.reed.coordinates.bench;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.PositionFit;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Server positioning on one core: one server from its RTTs to 15 landmarks in 4-D (default model,
 * with height), RTTs with 10 % multiplicative noise and a 2 % chance of a wild outlier per sample.
 * "cold" has no warm start (first round); "warm" starts from the previous round's position.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
public class PositioningBenchmark {

  @Param({"cold", "warm"})
  String start;

  HostPositioner positioner;
  List<Coordinate> landmarks;
  double[][] rtts;
  Coordinate[] previous;
  int next;

  @Setup
  public void setUp() {
    CoordinateConfig cfg = CoordinateConfig.defaults();
    positioner = new HostPositioner(cfg);
    SplittableRandom r = new SplittableRandom(3);
    landmarks = new ArrayList<>();
    double[][] centres = BenchWorld.centres(15, cfg.dimensions(), r);
    for (double[] c : centres) {
      landmarks.add(BenchWorld.near(c, 1, cfg.height(), r));
    }
    List<Coordinate> servers = BenchWorld.clients(1024, cfg.dimensions(), cfg.height(), 11);
    rtts = new double[servers.size()][landmarks.size()];
    previous = new Coordinate[servers.size()];
    for (int i = 0; i < servers.size(); i++) {
      for (int l = 0; l < landmarks.size(); l++) {
        double d = servers.get(i).distanceTo(landmarks.get(l)) * (1 + 0.1 * r.nextGaussian());
        if (r.nextInt(50) == 0) {
          d *= 3;
        }
        rtts[i][l] = Math.max(0.5, d);
      }
      previous[i] = positioner.position(landmarks, rtts[i], null).coordinate();
    }
  }

  @Benchmark
  public PositionFit positionOneServer() {
    int i = next++ & 1023;
    return positioner.position(landmarks, rtts[i], start.equals("warm") ? previous[i] : null);
  }
}
