package dev.reed.testbed.emulated;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/** A short run of the load harness: it works, and no reply ever beats the model's RTT. */
@Timeout(60)
class DelayAccuracyBenchmarkTest {

  @Test
  void aShortRunMeasuresEveryExchangeAndNothingIsEarly() throws Exception {
    DelayAccuracyBenchmark bench = new DelayAccuracyBenchmark();
    new CommandLine(bench).parseArgs("--servers", "300", "--rate", "300", "--seconds", "2", "--warmup", "1");
    DelayAccuracyBenchmark.Result r = bench.run();
    assertThat(r.servers()).isEqualTo(300);
    assertThat(r.probes()).isGreaterThan(500);
    assertThat(r.replies()).isEqualTo(r.probes());
    assertThat(r.minError()).as("a reply earlier than the model's RTT").isGreaterThanOrEqualTo(0.0);
    assertThat(r.p50()).as("median error; precision itself is measured on a quiet machine").isLessThan(5.0);
  }

  @Test
  void helpIsAvailable() {
    assertThat(new CommandLine(new DelayAccuracyBenchmark()).getUsageMessage()).contains("--servers", "--rate", "--warmup");
  }
}
