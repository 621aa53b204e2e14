package dev.reed.testbed.world;

import dev.reed.runtime.options.OptionHeadings;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./reed world}: writes a calibrated synthetic world ({@link CalibratedWorld}) as a matrix
 * directory that {@code ./reed eval} reads like the measured ones.
 */
@Command(name = "world", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Write a synthetic Internet calibrated against measured matrices",
        "(testbed/README.md, 'Calibrated world'): servers in real cities with",
        "datacentres, routed directly or through their exchange points, each with its",
        "own access delay; landmarks (cloud VMs) in hub cities after the servers.",
        "Writes DIR/matrix.csv (RTT ms), DIR/nodes.csv (index,name,lat,lon,country,",
        "region) and, with landmarks, DIR/landmarks.txt (their indices, for eval's",
        "--landmark-list). Compare it with a measured matrix:",
        "  ./reed eval --describe --matrix DIR/matrix.csv --nodes DIR/nodes.csv"})
public final class WorldCommand implements Callable<Integer>, OptionHeadings.Sectioned {

  /** --help by topic (OptionHeadings; ReedTest checks every option is under one). */
  static final OptionHeadings HEADINGS = OptionHeadings.of(
      OptionHeadings.section("World", "--cities", "--servers", "--landmarks", "--seed"),
      OptionHeadings.section("Output", "--out"));

  @Override
  public OptionHeadings optionHeadings() {
    return HEADINGS;
  }

  @Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--cities", defaultValue = "250", paramLabel = "N",
      description = "Cities, each region's first ones in its share of the catalog (1-250; default ${DEFAULT-VALUE}).")
  int cities;

  @Option(names = "--servers", paramLabel = "N",
      description = "Servers: one per city, the rest round the same cities again (default: one per city).")
  Integer servers;

  @Option(names = "--landmarks", defaultValue = "0", paramLabel = "L",
      description = "Landmarks in hub cities after the servers (default ${DEFAULT-VALUE}: eval chooses landmarks among"
          + " the servers, as on a measured matrix).")
  int landmarks;

  @Option(names = "--seed", defaultValue = "1", paramLabel = "S", description = "Seed (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output directory (created).")
  Path out;

  @Override
  public Integer call() throws IOException {
    PrintWriter err = spec.commandLine().getErr();
    int serverCount = servers == null ? cities : servers;
    String bad = cities < 1 || cities > WorldCity.catalog().size()
        ? "--cities must be 1.." + WorldCity.catalog().size() + ", got " + cities
        : serverCount < cities ? "--servers must be at least the cities (" + cities + "), got " + serverCount
        : landmarks < 0 || landmarks > CalibratedWorld.landmarkCities().size()
            ? "--landmarks must be 0.." + CalibratedWorld.landmarkCities().size() + ", got " + landmarks
            : null;
    if (bad != null) {
      err.println("world: " + bad);
      err.flush();
      return 2;
    }
    CalibratedWorld world = CalibratedWorld.generate(WorldParameters.fitted(), cities, serverCount, landmarks, seed);
    write(world, out);
    err.printf(Locale.ROOT, "world: %d servers in %d cities, %d landmarks, seed %d: wrote %s%n", world.servers(), cities,
        landmarks, seed, out);
    err.flush();
    return 0;
  }

  /** Writes matrix.csv, nodes.csv and (with landmarks) landmarks.txt into {@code dir}, creating it. */
  public static void write(CalibratedWorld world, Path dir) throws IOException {
    Files.createDirectories(dir);
    int n = world.size();
    try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("matrix.csv"), StandardCharsets.UTF_8)) {
      StringBuilder row = new StringBuilder();
      for (int i = 0; i < n; i++) {
        row.setLength(0);
        for (int j = 0; j < n; j++) {
          if (j > 0) {
            row.append(',');
          }
          row.append(String.format(Locale.ROOT, "%.3f", world.rttMs(i, j)));
        }
        w.write(row.append('\n').toString());
      }
    }
    try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("nodes.csv"), StandardCharsets.UTF_8)) {
      w.write("index,name,lat,lon,country,region\n");
      for (int i = 0; i < n; i++) {
        Host h = world.host(i);
        w.write(String.format(Locale.ROOT, "%d,%s,%.4f,%.4f,%s,%s%n", i, h.label(), h.lat(), h.lon(),
            world.countryOf(i), h.region().name()));
      }
    }
    if (n > world.servers()) {
      StringJoiner list = new StringJoiner(",", "", "\n");
      for (int i = world.servers(); i < n; i++) {
        list.add(Integer.toString(i));
      }
      Files.writeString(dir.resolve("landmarks.txt"), list.toString(), StandardCharsets.UTF_8);
    }
  }
}
