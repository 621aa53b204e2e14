package dev.reed.cli.scale;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run starts from nothing an earlier run left, and deletes nothing else. */
class ClearPreviousRunTest {
  @TempDir Path out;

  @Test
  void deletesTheBrokerDataCheckpointsAndLogsOfAnEarlierRunOnly() throws Exception {
    Files.createDirectories(out.resolve("kafka/reed.samples-0"));
    Files.writeString(out.resolve("kafka/reed.samples-0/00000000000000000000.log"), "old samples");
    for (String f : new String[] {"replica-1.checkpoint", "replica-1.log", "replica-2-gc-4546.log",
        "serving-1.checkpoint", "query-load.log", "query-load-gc.log.0", "leader.lock"}) {
      Files.writeString(out.resolve(f), "old");
    }
    Files.writeString(out.resolve("notes.txt"), "the user's");
    Files.createDirectories(out.resolve("replica-archive"));

    assertTrue(ScaleRun.clearPreviousRun(out));

    assertFalse(Files.exists(out.resolve("kafka")));
    try (var left = Files.list(out)) {
      assertTrue(left.map(p -> p.getFileName().toString()).sorted().toList()
          .equals(java.util.List.of("notes.txt", "replica-archive")), "only the harness's files go");
    }
    assertFalse(ScaleRun.clearPreviousRun(out), "nothing left to clear");
  }
}
