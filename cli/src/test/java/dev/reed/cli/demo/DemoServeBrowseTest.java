package dev.reed.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.reed.cli.browse.BrowseCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * What {@code ./reed demo --serve} offers: {@code ./reed browse} against the running system (embedded
 * Kafka, the real coordinator and landmark agents, emulated servers on their own 127.x addresses with
 * the world's latency), from a demo client's address, compared with traditional discovery, as JSON.
 * The world is small and measured once, and the demo's own discoveries stop at N_close = 10, as
 * the browse does: what is checked is the browse against the running system and that the geo
 * distance rows need no location database, not the demo's figures ({@link DemoCommandTest}).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
@Tag("integration")
class DemoServeBrowseTest {
  private static final int SERVERS = 300;

  @Test
  void browseFindsNearbyServersWithAFractionOfTraditionalsProbes(@TempDir Path dir) throws Exception {
    DemoOptions options = new DemoOptions(SERVERS, 6, "synthetic", 4, true, 1, 1.0, 0, 2000, 1, 0.05, 10, dev.reed.coordinates.discovery.DiscoveryModel.defaults(), 140, 140,
        dir, null, null, false, Duration.ofSeconds(60), false, false, null, false, false);
    try (Demo demo = new Demo(options, new Progress(new PrintWriter(new StringWriter()), System::nanoTime))) {
      DemoResult report = demo.run();
      // --no-geo: no location database for the coordinator; the geo distance rows need only the world's locations
      assertThat(report.geo()).isEqualTo("off (--no-geo)");
      assertThat(report.methods()).extracting(MethodFigures::method).contains("geo-first", "geo-intelligent");
      DemoWorld.Site client = demo.world().clients().getFirst();
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      CommandLine browse = new CommandLine(new BrowseCommand());
      browse.setOut(new PrintWriter(out));
      browse.setErr(new PrintWriter(err));
      int code = browse.execute("--coordinator", demo.coordinatorAddress(),
          "--bind", demo.world().address(client).getHostAddress(), "--n-close", "10", "--autostop", "first",
          "--compare-traditional", "--json");
      assertThat(code).as(err.toString()).isZero();

      JsonObject j = JsonParser.parseString(out.toString()).getAsJsonObject();
      JsonObject traditional = j.getAsJsonObject("traditional");
      assertThat(traditional.get("probes").getAsInt()).isEqualTo(SERVERS);
      assertThat(j.get("probes_needed").getAsInt() * 3).isLessThan(traditional.get("probes").getAsInt());
      assertThat(j.getAsJsonObject("reduction").get("probes_percent").getAsDouble()).isPositive();
      assertThat(j.getAsJsonObject("reduction").has("seconds_percent")).isTrue();
      assertThat(j.getAsJsonArray("servers").size()).isGreaterThanOrEqualTo(10);
    }
  }
}
