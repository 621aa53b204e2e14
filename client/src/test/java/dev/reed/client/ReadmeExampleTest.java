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
 * game-query responders it prints the 5 closest baseoa servers.
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
      List<String> closestBaseoa = w.world.servers.stream()
          .filter(s -> s.info().getGame().equals("baseoa") && s.info().getPlayers() < s.info().getMaxPlayers())
          .sorted(java.util.Comparator.comparingDouble(w.world::rttMs)).limit(5).map(FakeWorld.Server::key).toList();
      for (String key : closestBaseoa) assertThat(out).contains(key);
      assertThat(out).containsPattern("\\d+ probes in \\d+\\.\\d\\d s");
      assertThat(out).doesNotContain("discovery failed");
    }
  }
}
