package dev.reed.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The note {@code --realtime} prints when the kernel throttles real-time threads. */
class RtThrottleTest {

  @Test
  void notesTheKernelsDefaultThrottleAndSaysHowToTurnItOffAndBack(@TempDir Path dir) throws Exception {
    Path f = Files.writeString(dir.resolve("sched_rt_runtime_us"), "950000\n");
    assertThat(DemoEnvironment.rtThrottle(f)).contains("0.95 s of each second").contains("sched_rt_runtime_us=-1")
        .contains("=950000 restores it");
  }

  @Test
  void saysNothingWhenThrottlingIsOffOrTheSettingCannotBeRead(@TempDir Path dir) throws Exception {
    assertThat(DemoEnvironment.rtThrottle(Files.writeString(dir.resolve("off"), "-1\n"))).isNull();
    assertThat(DemoEnvironment.rtThrottle(Files.writeString(dir.resolve("garbage"), "many\n"))).isNull();
    assertThat(DemoEnvironment.rtThrottle(dir.resolve("missing"))).isNull();
  }
}
