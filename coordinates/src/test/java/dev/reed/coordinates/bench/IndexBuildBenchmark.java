package dev.reed.coordinates.bench;

import dev.reed.coordinates.ranking.RankingIndex;
import dev.reed.coordinates.ranking.ServerEntry;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Building the ranking index over every server, as each replica's index feed does after a batch of
 * coordinates (and once, over everything, when it has caught up after a restart): 4-D, no height.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class IndexBuildBenchmark {

  @Param({"250000"})
  int servers;

  List<ServerEntry> entries;

  @Setup(Level.Trial)
  public void setUp() {
    entries = BenchWorld.servers(servers, 4, false, 42);
  }

  @Benchmark
  public RankingIndex build() {
    return RankingIndex.of(entries);
  }
}
