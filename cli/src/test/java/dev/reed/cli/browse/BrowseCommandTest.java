package dev.reed.cli.browse;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.reed.client.LoopbackWorldAccess;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code ./reed browse} with real probes to real game-query responders on loopback. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BrowseCommandTest {
  private static LoopbackWorldAccess world;
  /** A discovery model with 6 calibration probes instead of 10: the world has 24 servers. */
  private static Path sixCalibrationProbes;
  /** Six calibration probes and Intelligent N_close's window of 5: the stop rules' tunables are model keys. */
  private static Path shortWindow;
  private static Path negativeMargin;

  @BeforeAll
  static void startWorld(@TempDir Path dir) throws IOException {
    world = LoopbackWorldAccess.start(24, 11);
    sixCalibrationProbes = Files.writeString(dir.resolve("six.properties"), "calibrationProbes = 6\n");
    shortWindow = Files.writeString(dir.resolve("window5.properties"), "calibrationProbes = 6\nintelligentWindow = 5\n");
    negativeMargin = Files.writeString(dir.resolve("margin.properties"), "windowMarginMs = -1\n");
  }

  @AfterAll
  static void stopWorld() {
    if (world != null) world.close();
  }

  record Run(int code, String out, String err) {}

  private static Run browse(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cmd = new CommandLine(new BrowseCommand());
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    int code = cmd.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void plainTableAsRepliesArriveThenASummary() {
    Run r = browse("--coordinator", world.coordinator(), "--model", sixCalibrationProbes.toString(), "--n-close", "5", "--plain", "--bind", "127.0.0.1");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains(LiveTable.HEADER);
    assertThat(r.out().lines().filter(l -> l.startsWith("loop-"))).hasSizeGreaterThanOrEqualTo(5);
    // First N_close counts answers as they arrive over real sockets: how many probes that took varies with load
    assertThat(r.out()).containsPattern("REED: \\d+ probes \\(6 calibration, \\d+ needed to decide\\) in \\d+\\.\\d\\d s, \\d+ servers found");
  }

  @Test
  void jsonWithTraditionalComparisonIsOneObject() {
    Run r = browse("--coordinator", world.coordinator(), "--model", shortWindow.toString(), "--n-close", "5", "--autostop", "intelligent",
        "--compare-traditional", "--json", "--rate", "500");
    assertThat(r.code()).as(r.err()).isZero();
    JsonObject j = JsonParser.parseString(r.out()).getAsJsonObject();
    assertThat(r.out().strip().lines()).hasSize(1);
    assertThat(j.get("method").getAsString()).isEqualTo("reed");
    JsonArray servers = j.getAsJsonArray("servers");
    assertThat(servers.size()).isGreaterThanOrEqualTo(5);
    JsonObject first = servers.get(0).getAsJsonObject();
    assertThat(world.closestKeys(24)).contains(first.get("address").getAsString());
    assertThat(first.get("name").getAsString()).startsWith("loop-");
    assertThat(first.get("rtt_ms").getAsDouble()).isPositive();
    assertThat(first.get("predicted_ms").getAsDouble()).isPositive();
    assertThat(first.has("map") && first.has("players") && first.has("max_players")).isTrue();
    JsonObject trad = j.getAsJsonObject("traditional");
    assertThat(trad.get("method").getAsString()).isEqualTo("traditional");
    assertThat(trad.get("probes").getAsInt()).isEqualTo(24);
    assertThat(trad.getAsJsonArray("servers").size()).isEqualTo(24);
    assertThat(j.getAsJsonObject("reduction").get("probes_percent").getAsDouble())
        .isCloseTo(100.0 * (1 - j.get("probes").getAsDouble() / 24), org.assertj.core.api.Assertions.within(0.01));
  }

  @Test
  void coordinatorDownIsAClearErrorAlsoInJson() throws IOException {
    String target = "127.0.0.1:" + closedPort();
    Run r = browse("--coordinator", target, "--model", sixCalibrationProbes.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("reed browse: coordinator " + target + " is unreachable");
    Run j = browse("--coordinator", target, "--json");
    assertThat(j.code()).isEqualTo(1);
    JsonObject o = JsonParser.parseString(j.out()).getAsJsonObject();
    assertThat(o.get("kind").getAsString()).isEqualTo("coordinator_unavailable");
    assertThat(o.get("error").getAsString()).contains("unreachable");
  }

  @Test
  void coordinatorDownFallsBackToTheMasterList() throws Exception {
    List<InetSocketAddress> q3 = world.quake3Servers();
    try (DatagramSocket master = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      Thread.ofVirtual().start(() -> answerGetservers(master, q3));
      // every server answers: a probe timeout far beyond any reply keeps a loaded machine's late
      // replies in the count
      Run r = browse("--coordinator", "127.0.0.1:" + closedPort(), "--fallback", "--master",
          "127.0.0.1:" + master.getLocalPort(), "--json", "--rate", "500", "--timeout", "60000");
      assertThat(r.code()).as(r.err()).isZero();
      JsonObject j = JsonParser.parseString(r.out()).getAsJsonObject();
      assertThat(j.get("method").getAsString()).isEqualTo("traditional-fallback");
      assertThat(j.get("coordinator_failure").getAsString()).contains("unreachable");
      assertThat(j.get("probes").getAsInt()).isEqualTo(q3.size());
      assertThat(j.getAsJsonArray("servers").size()).isEqualTo(q3.size());
    }
  }

  @Test
  void locatePrintsAGroupFileLine() {
    Run r = browse("--coordinator", world.coordinator(), "--model", sixCalibrationProbes.toString(), "--locate");
    assertThat(r.code()).as(r.err()).isZero();
    String[] t = r.out().strip().split(" ");
    assertThat(t).hasSize(3); // "me x y": the fake deployment is 2-D without height
    assertThat(t[0]).isEqualTo("me");
    // the line reads back as a group member (accuracy is ReedClientTest's: real RTTs here carry load noise)
    assertThat(GroupFile.parse(List.of(r.out().strip()), "out").get(0).coordinate().dimensions()).isEqualTo(2);
  }

  @Test
  void groupRanksForEveryMember(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("group.txt");
    Files.writeString(file, "alice 0 0\nbob 40 10\nme @" + world.coordinator() + "\n");
    Run r = browse("--coordinator", world.coordinator(), "--model", sixCalibrationProbes.toString(), "--group", file.toString(), "--n-close", "5", "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonObject j = JsonParser.parseString(r.out()).getAsJsonObject();
    assertThat(j.getAsJsonArray("members")).hasSize(3);
    JsonArray servers = j.getAsJsonArray("servers");
    assertThat(servers).hasSize(5);
    assertThat(servers.get(0).getAsJsonObject().getAsJsonArray("member_predicted_ms")).hasSize(3);
    Run table = browse("--coordinator", world.coordinator(), "--model", sixCalibrationProbes.toString(), "--group", file.toString(), "--n-close", "3");
    assertThat(table.out()).contains("group of 3 (MIN_MAX): alice, bob, me");
  }

  /** The zero-probe ranking: predicted pings with their uncertainty, from a stated location, nothing probed. */
  @Test
  void zeroProbeListsPredictedPingsFromTheLocation() {
    Run r = browse("--coordinator", world.coordinator(), "--zero-probe", "--location", "35.68,139.69", "--rows", "5");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("predicted ping from this player's location, no probe (5 servers)");
    assertThat(r.out().lines().filter(l -> l.matches("\\d+ +\\S+ +JP +\\d+\\.\\d ms \\+/- \\d+\\.\\d"))).hasSize(5);
    Run j = browse("--coordinator", world.coordinator(), "--zero-probe", "--location", "35.68,139.69", "--rows", "3", "--json");
    assertThat(j.code()).as(j.err()).isZero();
    var servers = com.google.gson.JsonParser.parseString(j.out()).getAsJsonObject().getAsJsonArray("servers");
    assertThat(servers).hasSize(3);
    assertThat(servers.get(0).getAsJsonObject().get("uncertainty_ms").getAsDouble()).isPositive();
    // without a location this fake coordinator cannot place the player: a clear error
    Run none = browse("--coordinator", world.coordinator(), "--zero-probe");
    assertThat(none.code()).isEqualTo(1);
    assertThat(none.err()).contains("no location prior");
  }

  @Test
  void badOptionsExitTwoWithAMessage() {
    Run r = browse("--coordinator", world.coordinator(), "--autostop", "sometimes");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--autostop must be first, intelligent, rtt-stop, rtt-limit or none");
    assertThat(browse("--coordinator", "nowhere").err()).contains("HOST:PORT");
    assertThat(browse("--coordinator", world.coordinator(), "--fallback").err()).contains("--fallback needs --master");
    Run margin = browse("--coordinator", world.coordinator(), "--autostop", "intelligent", "--model", negativeMargin.toString());
    assertThat(margin.code()).isEqualTo(2);
    assertThat(margin.err()).contains("--model", "margin.properties", "windowMarginMs must be >= 0 and finite");
    Run geo = browse("--coordinator", world.coordinator(), "--fallback", "--master", "127.0.0.1:27950", "--geoip",
        "/nonexistent/city.csv");
    assertThat(geo.code()).isEqualTo(2);
    assertThat(geo.err()).contains("cannot open the geo databases", "/nonexistent/city.csv");
    assertThat(browse("--coordinator", world.coordinator(), "--asn", "/nonexistent/asn.csv").err())
        .contains("--geoip and --asn are for --fallback's clustering");
    assertThat(browse("--coordinator", world.coordinator(), "--cluster-by", "city").err())
        .contains("--cluster-by must be auto, as or country: city");
    Run where = browse("--coordinator", world.coordinator(), "--location", "95,0");
    assertThat(where.code()).isEqualTo(2);
    assertThat(where.err()).contains("--location: latitude must be -90..90");
    assertThat(browse("--coordinator", world.coordinator(), "--location", "Tokyo").err())
        .contains("--location must be LAT,LON in degrees");
    Run near = browse("--coordinator", world.coordinator(), "--model", sixCalibrationProbes.resolveSibling("missing").toString());
    assertThat(near.code()).isEqualTo(2);
    assertThat(near.err()).contains("--model " + sixCalibrationProbes.resolveSibling("missing") + ": no such file");
  }

  @Test
  void helpDescribesTheCommand() {
    Run r = browse("--help");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("Find nearby game servers with REED").contains("--compare-traditional");
    assertThat(r.out().replaceAll("\\s+", " ")).contains("--[no-]report")
        .contains("keeps no address of this machine").contains("each probed server's RTT or timeout");
  }

  @Test
  void reportsWhatItMeasuredUnlessToldNot() {
    int before = world.reportsReceived();
    Run on = browse("--coordinator", world.coordinator(), "--model", sixCalibrationProbes.toString(), "--n-close", "5", "--plain", "--bind", "127.0.0.1");
    assertThat(on.code()).as(on.err()).isZero();
    assertThat(world.reportsReceived()).as("the reference browser reports by default, before it exits").isEqualTo(before + 1);
    Run off = browse("--coordinator", world.coordinator(), "--model", sixCalibrationProbes.toString(), "--n-close", "5", "--plain", "--bind", "127.0.0.1",
        "--no-report");
    assertThat(off.code()).as(off.err()).isZero();
    assertThat(world.reportsReceived()).isEqualTo(before + 1);
  }

  private static void answerGetservers(DatagramSocket master, List<InetSocketAddress> servers) {
    try {
      DatagramPacket req = new DatagramPacket(new byte[1500], 1500);
      master.receive(req);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.writeBytes(new byte[] {-1, -1, -1, -1});
      out.writeBytes("getserversResponse".getBytes(StandardCharsets.US_ASCII));
      for (InetSocketAddress a : servers) {
        out.write('\\');
        out.writeBytes(a.getAddress().getAddress());
        out.write(a.getPort() >> 8);
        out.write(a.getPort() & 0xFF);
      }
      out.writeBytes("\\EOT\0\0\0".getBytes(StandardCharsets.US_ASCII));
      byte[] b = out.toByteArray();
      master.send(new DatagramPacket(b, b.length, req.getSocketAddress()));
    } catch (IOException e) {
      // the test fails on the missing list
    }
  }

  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
