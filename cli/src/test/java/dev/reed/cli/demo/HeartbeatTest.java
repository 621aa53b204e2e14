package dev.reed.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HeartbeatTest {
  private final AtomicLong nanos = new AtomicLong();
  private final StringWriter out = new StringWriter();
  private final Progress progress = new Progress(new PrintWriter(out), nanos::get);
  private final Heartbeat heartbeat = new Heartbeat(progress);

  @Test
  void namesWhatIsStillRunningOnlyAfterAQuietSpell() {
    progress.line("round 1 starts");
    try (var a = heartbeat.begin("round 1", () -> "landmarks probing")) {
      advance(Heartbeat.QUIET_SECONDS - 1);
      heartbeat.beat();
      assertThat(out.toString()).doesNotContain("...");
      advance(1);
      heartbeat.beat();
      assertThat(out.toString()).contains("[   8.0 s]   ... round 1 (landmarks probing, 8 s)");
      // the heartbeat is a line too: the next comes a quiet spell later
      int length = out.toString().length();
      advance(1);
      heartbeat.beat();
      assertThat(out.toString()).hasSize(length);
    }
    advance(Heartbeat.QUIET_SECONDS * 2);
    heartbeat.beat();
    assertThat(out.toString()).doesNotContain("round 1 (landmarks probing, 25 s)").contains("[  25.0 s]   ... still working");
  }

  @Test
  void listsEveryActivityRunningSideBySide() {
    try (var a = heartbeat.begin("traditional discovery", () -> "10 of 30 replies"); var b = heartbeat.begin("reports")) {
      advance(Heartbeat.QUIET_SECONDS);
      heartbeat.beat();
    }
    assertThat(out.toString()).contains("... traditional discovery (10 of 30 replies, 8 s); reports (8 s)");
  }

  private void advance(double seconds) {
    nanos.addAndGet((long) (seconds * 1e9));
  }
}
