package dev.reed.coordinates.geo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ContinentsTest {
  /** The Azure regions' cities (data/azure54_latency/nodes.csv) land in the region column's continent. */
  @Test
  void citiesLandInTheirContinent() {
    Object[][] cities = {
        {"Johannesburg", -26.2041, 28.0473, "AF"}, {"Cape Town", -33.9249, 18.4241, "AF"}, {"Jakarta", -6.2088, 106.8456, "AS"},
        {"Singapore", 1.3521, 103.8198, "AS"}, {"Chennai", 13.0827, 80.2707, "AS"}, {"Tokyo", 35.6762, 139.6503, "AS"},
        {"Seoul", 37.5665, 126.978, "AS"}, {"Madrid", 40.4168, -3.7038, "EU"}, {"Oslo", 59.9139, 10.7522, "EU"},
        {"Dublin", 53.3498, -6.2603, "EU"}, {"Abu Dhabi", 24.4539, 54.3773, "ME"}, {"Doha", 25.2854, 51.531, "ME"},
        {"Tel Aviv", 32.0853, 34.7818, "ME"}, {"Queretaro", 20.5888, -100.3899, "NA"}, {"Toronto", 43.6532, -79.3832, "NA"},
        {"San Francisco", 37.7749, -122.4194, "NA"}, {"Sydney", -33.8688, 151.2093, "OC"}, {"Auckland", -36.8485, 174.7633, "OC"},
        {"Sao Paulo", -23.5505, -46.6333, "SA"}, {"Bogota", 4.711, -74.0721, "SA"}, {"Panama", 8.98, -79.52, "NA"}};
    for (Object[] c : cities) {
      assertThat(Continents.code((double) c[1], (double) c[2])).as((String) c[0]).isEqualTo(c[3]);
      assertThat(Place.of((double) c[1], (double) c[2]).region()).isEqualTo(c[3]);
    }
  }
}
