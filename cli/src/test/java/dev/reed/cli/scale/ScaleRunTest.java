package dev.reed.cli.scale;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.cli.scale.ScaleResult.RoundFigures;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The scale harness, reduced: 20,000 targets x 15 landmarks through the embedded broker
 * into two coordinator processes sharing the partitions and a serving replica ({@code --serve-only},
 * which the queries go to), two 12 s rounds, queries during ingest, then a replica SIGKILLed and
 * started again. The pipeline's invariants are what is asserted:
 * every sample the feed published counted exactly once by the replicas together, none refused,
 * every target positioned and in every replica's index, every round served, the killed replica's
 * share served again and the restarted one serving, the report and plots written, nothing left
 * running. The figures themselves (rates, latencies) depend on the machine and are only printed.
 */
@Tag("integration")
class ScaleRunTest {

  @Test
  void reducedRunCountsEverySampleOncePositionsEveryTargetAndWritesTheReport(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    ScaleSettings s = new ScaleSettings(20_000, 15, Duration.ofSeconds(12), 2, 2, 1, "512m", "-XX:+UseParallelGC", Duration.ofSeconds(2), 100,
        Duration.ofSeconds(2), 230, 0.05, true, null, dir.resolve("scale"));
    ScaleResult r;
    try (PrintStream out = new PrintStream(progress, true, StandardCharsets.UTF_8)) {
      r = new ScaleRun(s, out).run();
    } finally {
      System.out.print(progress.toString(StandardCharsets.UTF_8));
    }
    Path md = ScaleOutput.write(r, "ScaleRunTest");
    System.out.println(ScaleOutput.TSV_HEADER + "\n" + ScaleOutput.tsv(r));

    assertThat(r.published()).isEqualTo(2L * 20_000 * 15);
    assertThat(r.counted()).as("samples counted by the replicas together").isEqualTo(r.published());
    assertThat(r.deadLetters()).isZero();
    assertThat(r.allServed()).as("every replica's index holds every target").isTrue();
    assertThat(r.replicas()).hasSize(2);
    assertThat(r.replicas().stream().mapToInt(ScaleResult.ReplicaFigures::windowTargets).sum())
        .as("the replicas' windows partition the targets").isEqualTo(20_000);
    assertThat(r.replicas().stream().filter(ScaleResult.ReplicaFigures::leader)).as("one leader (file lock)").hasSize(1);
    assertThat(r.serving()).as("the serving replica").hasSize(1);
    assertThat(r.serving().getFirst().indexServers()).as("the serving replica's index holds every target").isEqualTo(20_000);
    assertThat(r.rounds()).extracting(RoundFigures::served).allMatch(t -> t >= 0);
    assertThat(r.queries().requests()).isPositive();
    assertThat(r.failover()).isNotNull();
    assertThat(r.failover().shareServed()).as("killed replica's partitions served again").isPositive();
    assertThat(r.failover().restartToServing()).as("restart to serving").isPositive();

    assertThat(Files.readString(md)).contains("every sample counted once", "true (600,000 published, 600,000 counted",
        "serving replica 1 (--serve-only) | 20,000 servers in its index", "to the serving replicas",
        "SIGKILLed replica", "![ingest.png](ingest.png)");
    for (String png : List.of("ingest.png", "lag.png", "heap.png", "rss.png", "served.png", "windows.png")) {
      assertThat(ImageIO.read(md.resolveSibling(png).toFile())).as(png).isNotNull();
    }
    assertThat(Files.readAllLines(md.resolveSibling("summary.tsv"))).hasSize(2);
    assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive)).as("replica processes left").isEmpty();
  }

  @Test
  void badOptionsAreUsageErrorsNamingTheOption() {
    StringWriter err = new StringWriter();
    int rc = new CommandLine(new ScaleCommand()).setErr(new PrintWriter(err)).execute("--replicas", "4");
    assertThat(rc).isEqualTo(2);
    assertThat(err.toString()).contains("--replicas must be 1-3");
    err.getBuffer().setLength(0);
    rc = new CommandLine(new ScaleCommand()).setErr(new PrintWriter(err)).execute("--landmarks", "3");
    assertThat(rc).isEqualTo(2);
    assertThat(err.toString()).contains("--landmarks must be 6-64");
    err.getBuffer().setLength(0);
    rc = new CommandLine(new ScaleCommand()).setErr(new PrintWriter(err)).execute("--serving-replicas", "4");
    assertThat(rc).isEqualTo(2);
    assertThat(err.toString()).contains("--serving-replicas must be 0-3");
  }
}
