package dev.reed.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.client.readme.NearbyServers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The SDK example in client/README.md is this module's {@link NearbyServers}, character for
 * character (minus the package line), and it runs: against a coordinator on loopback with real
 * game-query responders it prints 5 baseoa servers. (How well discovery picks the nearest is
 * {@link ReedClientTest}'s and {@link EndToEndTest}'s business; on a loaded machine a stall of the
 * responders' threads reorders measured RTTs by tens of ms.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReadmeExampleTest {

  @Test
  void readmeShowsExactlyTheCompiledExample() throws Exception {
    String readme = Files.readString(Path.of("README.md"));
    Matcher m = Pattern.compile("<!-- example: NearbyServers.java -->\\s*```java\\n(.*?)```", Pattern.DOTALL).matcher(readme);
    assertThat(m.find()).as("README.md has the marked example block").isTrue();
    String source = Files.readString(Path.of("src/test/java/dev/reed/client/readme/NearbyServers.java"));
    String withoutPackage = source.substring(source.indexOf('\n') + 1).stripLeading();
    assertThat(m.group(1)).isEqualTo(withoutPackage);
  }

  @Test
  void theExampleFindsTheClosestServers() throws Exception {
    try (LoopbackWorld w = LoopbackWorld.start(24, 7)) {
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      PrintStream old = System.out;
      System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
      try {
        NearbyServers.main(new String[] {w.coordinator()});
      } finally {
        System.setOut(old);
      }
      String out = buf.toString(StandardCharsets.UTF_8);
      old.print(out);
      // the five rows are baseoa servers (the filter), closest first; replies were real UDP
      List<String> baseoa = w.world.servers.stream().filter(s -> s.info().getGame().equals("baseoa"))
          .map(FakeWorld.Server::key).toList();
      List<String> rows = out.lines().filter(l -> l.startsWith("loop-")).toList();
      assertThat(rows).hasSize(5);
      for (String row : rows) assertThat(baseoa).contains(row.substring(row.lastIndexOf(' ') + 1));
      assertThat(out.lines().filter(l -> l.startsWith("found "))).hasSizeGreaterThanOrEqualTo(5);
      assertThat(out).containsPattern("\\d+ probes in \\d+\\.\\d\\d s");
      assertThat(out).doesNotContain("discovery failed");
    }
  }
}
