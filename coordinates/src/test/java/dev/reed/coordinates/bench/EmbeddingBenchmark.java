package dev.reed.coordinates.bench;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.LandmarkEmbedder;
import dev.reed.coordinates.LandmarkEmbedding;
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
 * Landmark embedding (GNP) of 15, 30 and 100 landmarks in the default model, from an RTT matrix with
 * 10 % noise, aligned to the previous round's solution as the coordinator does every round.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
public class EmbeddingBenchmark {

  @Param({"15", "30", "100"})
  int landmarks;

  double[][] rtt;
  List<Coordinate> previous;
  LandmarkEmbedder embedder;

  @Setup
  public void setUp() {
    CoordinateConfig cfg = CoordinateConfig.defaults();
    SplittableRandom r = new SplittableRandom(5);
    List<Coordinate> truth = new ArrayList<>();
    double[][] centres = BenchWorld.centres(landmarks, cfg.dimensions(), r);
    for (double[] c : centres) {
      truth.add(BenchWorld.near(c, 1, cfg.height(), r));
    }
    rtt = new double[landmarks][landmarks];
    for (int i = 0; i < landmarks; i++) {
      for (int j = 0; j < landmarks; j++) {
        rtt[i][j] = i == j ? 0 : Math.max(0.5, truth.get(i).distanceTo(truth.get(j)) * (1 + 0.1 * r.nextGaussian()));
      }
    }
    embedder = new LandmarkEmbedder(cfg, new SplittableRandom(1));
    previous = embedder.embed(rtt, null).coordinates();
  }

  @Benchmark
  public LandmarkEmbedding embed() {
    return embedder.embed(rtt, previous);
  }
}
