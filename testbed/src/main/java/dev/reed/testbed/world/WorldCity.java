package dev.reed.testbed.world;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A real city with datacentres, from the calibrated world's catalog ({@code cities.csv} beside this
 * class: 250 cities on every continent, in the regional mix of a held-out matrix of datacentre
 * hosts). Within a region the catalog is in order of importance, so a world of fewer cities takes
 * each region's first ones.
 *
 * @param country ISO 3166 alpha-2
 * @param hub 2 = an intercontinental exchange point (where continents' backbones meet), 1 = a
 *     regional exchange point, 0 = none
 */
public record WorldCity(String name, String country, double lat, double lon, Region region, int hub) {
  private static final List<WorldCity> CATALOG = load();

  public WorldCity {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(country, "country");
    Objects.requireNonNull(region, "region");
    if (!(lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180)) {
      throw new IllegalArgumentException("bad coordinates for " + name + ": " + lat + "," + lon);
    }
    if (hub < 0 || hub > 2) {
      throw new IllegalArgumentException("hub must be 0, 1 or 2 for " + name + ": " + hub);
    }
  }

  /** The catalog, in file order (immutable). */
  public static List<WorldCity> catalog() {
    return CATALOG;
  }

  private static List<WorldCity> load() {
    try (InputStream in = WorldCity.class.getResourceAsStream("cities.csv")) {
      if (in == null) {
        throw new IllegalStateException("cities.csv is missing from the testbed's resources");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      List<WorldCity> out = new ArrayList<>();
      String line;
      int no = 0;
      boolean header = true;
      while ((line = r.readLine()) != null) {
        no++;
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        if (header) {
          header = false;
          continue;
        }
        String[] c = line.split(",", -1);
        if (c.length != 6) {
          throw new IllegalStateException("cities.csv line " + no + ": 6 cells expected, got " + c.length);
        }
        out.add(new WorldCity(c[0], c[1], Double.parseDouble(c[2]), Double.parseDouble(c[3]),
            Region.valueOf(c[4].toUpperCase(Locale.ROOT)), Integer.parseInt(c[5])));
      }
      return List.copyOf(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
