package dev.reed.testbed.world;

import java.util.List;
import java.util.Objects;

/**
 * A city that hosts game servers, with a weight proportional to its share of hosting.
 *
 * <p>The weights follow the skew the REED paper saw in master-server lists (Armitage &amp; Heyde,
 * TOMCCAP 2011: most Counter-Strike and Quake III servers in Europe, fewer in North America,
 * few in Asia) and where hosting companies place game servers today: Europe about 55 %, North
 * America 27 %, Asia 10 %, the rest of the world 8 %.
 *
 * @param weight relative share of game servers hosted here
 */
record City(String name, Region region, double lat, double lon, double weight) {
  private static final List<City> CATALOG = List.of(
      new City("Frankfurt", Region.EU, 50.11, 8.68, 14),
      new City("London", Region.EU, 51.51, -0.13, 10),
      new City("Amsterdam", Region.EU, 52.37, 4.90, 9),
      new City("Paris", Region.EU, 48.86, 2.35, 7),
      new City("Moscow", Region.EU, 55.76, 37.62, 7),
      new City("Stockholm", Region.EU, 59.33, 18.07, 4),
      new City("Warsaw", Region.EU, 52.23, 21.01, 4),
      new City("Madrid", Region.EU, 40.42, -3.70, 3),
      new City("Istanbul", Region.EU, 41.01, 28.98, 3),
      new City("Milan", Region.EU, 45.46, 9.19, 2),
      new City("Vienna", Region.EU, 48.21, 16.37, 2),
      new City("Prague", Region.EU, 50.08, 14.44, 2),
      new City("Helsinki", Region.EU, 60.17, 24.94, 2),
      new City("Kyiv", Region.EU, 50.45, 30.52, 2),
      new City("Bucharest", Region.EU, 44.43, 26.10, 2),
      new City("Lisbon", Region.EU, 38.72, -9.14, 1),
      new City("Copenhagen", Region.EU, 55.68, 12.57, 1),
      new City("Oslo", Region.EU, 59.91, 10.75, 1),
      new City("New York", Region.NA, 40.71, -74.01, 5),
      new City("Chicago", Region.NA, 41.88, -87.63, 5),
      new City("Ashburn", Region.NA, 39.04, -77.49, 4),
      new City("Dallas", Region.NA, 32.78, -96.80, 4),
      new City("Los Angeles", Region.NA, 34.05, -118.24, 4),
      new City("Seattle", Region.NA, 47.61, -122.33, 2),
      new City("Atlanta", Region.NA, 33.75, -84.39, 2),
      new City("Toronto", Region.NA, 43.65, -79.38, 2),
      new City("Miami", Region.NA, 25.76, -80.19, 1),
      new City("Montreal", Region.NA, 45.50, -73.57, 1),
      new City("Denver", Region.NA, 39.74, -104.99, 1),
      new City("Tokyo", Region.AS, 35.68, 139.69, 2.5),
      new City("Seoul", Region.AS, 37.57, 126.98, 2),
      new City("Singapore", Region.AS, 1.35, 103.82, 2),
      new City("Hong Kong", Region.AS, 22.32, 114.17, 1.5),
      new City("Shanghai", Region.AS, 31.23, 121.47, 1),
      new City("Mumbai", Region.AS, 19.08, 72.88, 0.5),
      new City("Taipei", Region.AS, 25.03, 121.57, 0.5),
      new City("Sao Paulo", Region.SA, -23.55, -46.63, 3),
      new City("Buenos Aires", Region.SA, -34.60, -58.38, 1),
      new City("Santiago", Region.SA, -33.45, -70.67, 0.5),
      new City("Sydney", Region.OC, -33.87, 151.21, 2),
      new City("Melbourne", Region.OC, -37.81, 144.96, 1),
      new City("Auckland", Region.OC, -36.85, 174.76, 0.5),
      new City("Johannesburg", Region.AF, -26.20, 28.05, 1),
      new City("Dubai", Region.ME, 25.20, 55.27, 1));

  public City {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(region, "region");
    if (!(lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180)) {
      throw new IllegalArgumentException("bad coordinates for " + name + ": " + lat + "," + lon);
    }
    if (!(weight >= 0) || Double.isInfinite(weight)) {
      throw new IllegalArgumentException("bad weight for " + name + ": " + weight);
    }
  }

  /** The built-in game-hosting cities (immutable). */
  public static List<City> catalog() {
    return CATALOG;
  }

  /** A catalog city by name (case-insensitive). */
  public static City named(String name) {
    return CATALOG.stream().filter(c -> c.name.equalsIgnoreCase(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no city named '" + name + "' in the catalog"));
  }
}
