package dev.reed.testbed.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class WorldCommandTest {

  @TempDir
  Path dir;

  private int run(StringWriter err, String... args) {
    return new CommandLine(new WorldCommand()).setErr(new PrintWriter(err)).execute(args);
  }

  @Test
  void writesAMatrixDirectoryTheLoadersRead() throws Exception {
    StringWriter err = new StringWriter();
    Path out = dir.resolve("w");
    int code = run(err, "--cities", "40", "--servers", "60", "--landmarks", "5", "--seed", "3", "--out", out.toString());
    assertEquals(0, code, err.toString());
    MatrixModel m = MatrixModel.load(out.resolve("matrix.csv"));
    assertEquals(65, m.size());
    CalibratedWorld w = CalibratedWorld.generate(WorldParameters.fitted(), 40, 60, 5, 3);
    for (int i = 0; i < m.size(); i += 7) {
      for (int j = 0; j < m.size(); j += 5) {
        assertEquals(w.rttMs(i, j), m.rttMs(i, j), 0.0006, i + "," + j);
        assertEquals(m.rttMs(i, j), m.rttMs(j, i), 1e-9, "symmetric");
      }
    }
    List<String> nodes = Files.readAllLines(out.resolve("nodes.csv"));
    assertEquals("index,name,lat,lon,country,region", nodes.get(0));
    assertEquals(66, nodes.size());
    assertTrue(nodes.get(1).startsWith("0,Frankfurt,"), nodes.get(1));
    assertTrue(nodes.get(41).startsWith("40,Frankfurt #2,"), "servers beyond the cities go round them again: " + nodes.get(41));
    assertTrue(nodes.get(61).startsWith("60,lm-Frankfurt,50.1100,8.6800,DE,EU"), nodes.get(61));
    assertEquals("60,61,62,63,64", Files.readString(out.resolve("landmarks.txt")).strip());
  }

  @Test
  void landmarksTakeIntercontinentalHubsRegionByRegion() {
    List<String> first = CalibratedWorld.landmarkCities().stream().limit(7).map(WorldCity::name).toList();
    assertEquals(List.of("Frankfurt", "Ashburn", "Tokyo", "Sao Paulo", "Sydney", "Johannesburg", "Dubai"), first);
  }

  @Test
  void fewerCitiesKeepEachRegionsShare() {
    CalibratedWorld w = CalibratedWorld.of(125, 1);
    long eu = w.hosts().stream().filter(h -> h.region() == Region.EU).count();
    long na = w.hosts().stream().filter(h -> h.region() == Region.NA).count();
    assertEquals(48, eu);
    assertEquals(42, na);
    assertEquals(125, w.hosts().stream().map(Host::city).distinct().count());
  }

  @Test
  void badInputIsRefusedWithTheOption() {
    StringWriter err = new StringWriter();
    assertEquals(2, run(err, "--cities", "251", "--out", dir.toString()));
    assertTrue(err.toString().contains("--cities must be 1..250"), err.toString());
    err = new StringWriter();
    assertEquals(2, run(err, "--cities", "10", "--servers", "5", "--out", dir.toString()));
    assertTrue(err.toString().contains("--servers must be at least the cities"), err.toString());
    err = new StringWriter();
    assertEquals(2, run(err, "--landmarks", "-1", "--out", dir.toString()));
    assertTrue(err.toString().contains("--landmarks must be"), err.toString());
  }

  @Test
  void catalogHasTheHeldOutRegionalMix() {
    assertEquals(250, WorldCity.catalog().size());
    assertEquals(250, WorldCity.catalog().stream().map(WorldCity::name).distinct().count());
    assertEquals(96, WorldCity.catalog().stream().filter(c -> c.region() == Region.EU).count());
    assertEquals(84, WorldCity.catalog().stream().filter(c -> c.region() == Region.NA).count());
  }
}
