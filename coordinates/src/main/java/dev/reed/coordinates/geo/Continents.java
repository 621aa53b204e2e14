package dev.reed.coordinates.geo;

/**
 * A coarse continent code from a location, the region of the per-region-pair distance lines: NA,
 * SA, EU, AF, ME (Middle East), AS, OC. Location databases give a country, not a continent, and a
 * client states only a point, so the coordinator, the SDK and the evaluator all derive the region
 * from the point alike; a few boxes are enough, because a line per region pair only needs hosts in
 * the same broad networks grouped together (submarine cables and continental backbones), and a pair
 * with fewer than {@code regionMinPairs} labelled RTTs falls back to the global line anyway.
 * Borders are approximate (Tunis counts as Europe, Tehran as Asia).
 */
public final class Continents {
  private Continents() {}

  /** The continent code of a point (degrees; valid ranges assumed). */
  public static String code(double lat, double lon) {
    if (lon < -30) {
      return lat > 12 || (lat > 7 && lon < -77) ? "NA" : "SA";
    }
    if ((lat < -10 && lon > 110) || lon > 165) {
      return "OC";
    }
    if (lat >= 35.5 && lon < 45) {
      return "EU";
    }
    if (lat < 35.5 && lon < 60) {
      return lon > 34 && lat > 12 ? "ME" : "AF";
    }
    return "AS";
  }
}
