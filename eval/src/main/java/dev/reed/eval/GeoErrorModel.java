package dev.reed.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * How wrong a GeoIP database is about a client's location ({@code --geo-error}). A modelling
 * choice, not a measurement: the displacement distance is log-normal with the given median and
 * 90th percentile, in a uniformly random direction, and a share of clients is placed at another
 * node's location in another country (the database has the address block's registrant, not its
 * user). {@code geoip} is median 50 km, p90 400 km, 5 % in a wrong country: the figures
 * usually quoted for a city-level database (eval/README.md says where they come from).
 *
 * <p>Text form: {@code none}, {@code geoip}, or {@code geoip:MEDIAN_KM:P90_KM:WRONG_SHARE} (for
 * example {@code geoip:50:400:0.05}).
 *
 * @param medianKm median displacement (km; 0 = none)
 * @param p90Km 90th percentile of the displacement (km; > medianKm unless both are 0)
 * @param wrongCountryShare share of clients placed in a wrong country (0..1)
 */
public record GeoErrorModel(double medianKm, double p90Km, double wrongCountryShare) {

  /** No error: every client is where the node list says. */
  public static final GeoErrorModel NONE = new GeoErrorModel(0, 0, 0);
  /** A city-level GeoIP database with the usual figures. */
  public static final GeoErrorModel GEOIP = new GeoErrorModel(50, 400, 0.05);

  /** z of the 90th percentile of the standard normal distribution. */
  private static final double Z90 = 1.2815515655446004;
  /** No displacement beyond a quarter of the Earth's circumference: the log-normal tail is not geography. */
  static final double MAX_KM = 10_000;

  public GeoErrorModel {
    if (!(medianKm >= 0) || !(p90Km >= 0) || !Double.isFinite(medianKm) || !Double.isFinite(p90Km)) {
      throw new IllegalArgumentException("median and p90 must be finite km >= 0: " + medianKm + ", " + p90Km);
    }
    if (medianKm > 0 ? !(p90Km > medianKm) : p90Km != 0) {
      throw new IllegalArgumentException("p90 must be above the median (or both 0): " + medianKm + ", " + p90Km);
    }
    if (!(wrongCountryShare >= 0 && wrongCountryShare <= 1)) {
      throw new IllegalArgumentException("the wrong-country share must be 0..1: " + wrongCountryShare);
    }
  }

  /**
   * Reads the text form.
   *
   * @throws IllegalArgumentException saying what is accepted
   */
  public static GeoErrorModel parse(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    if (t.equals("none")) {
      return NONE;
    }
    if (t.equals("geoip")) {
      return GEOIP;
    }
    String[] p = t.split(":", -1);
    if (p.length == 4 && p[0].equals("geoip")) {
      try {
        return new GeoErrorModel(Double.parseDouble(p[1]), Double.parseDouble(p[2]), Double.parseDouble(p[3]));
      } catch (NumberFormatException e) {
        // the message below says what is accepted
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--geo-error " + text + ": " + e.getMessage(), e);
      }
    }
    throw new IllegalArgumentException("--geo-error must be none, geoip or geoip:MEDIAN_KM:P90_KM:WRONG_SHARE"
        + " (e.g. geoip:50:400:0.05), got '" + text + "'");
  }

  /** True when it moves no client. */
  public boolean isNone() {
    return medianKm == 0 && wrongCountryShare == 0;
  }

  /** The text form. */
  @Override
  public String toString() {
    return isNone() ? "none" : equals(GEOIP) ? "geoip"
        : String.format(Locale.ROOT, "geoip:%s:%s:%s", medianKm, p90Km, wrongCountryShare);
  }

  /**
   * Where the database puts each located node for landmark seed {@code seed}: deterministic per
   * seed and node, independent of the other nodes and of threads. Unlocated nodes stay null.
   */
  GeoPoint[] displace(NodeTable nodes, long seed) {
    int n = nodes.size();
    GeoPoint[] out = new GeoPoint[n];
    double sigma = medianKm > 0 ? Math.log(p90Km / medianKm) / Z90 : 0;
    for (int v = 0; v < n; v++) {
      GeoPoint at = nodes.node(v).location();
      if (at == null) {
        continue;
      }
      SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + v);
      if (r.nextDouble() < wrongCountryShare) {
        GeoPoint elsewhere = elsewhere(nodes, v, r);
        if (elsewhere != null) {
          out[v] = elsewhere;
          continue;
        }
      }
      double km = medianKm > 0 ? Math.min(MAX_KM, medianKm * Math.exp(sigma * r.nextGaussian())) : 0;
      out[v] = km == 0 ? at : at.moved(km, 2 * Math.PI * r.nextDouble());
    }
    return out;
  }

  /** A random other node's location in another country (any other place when countries are unknown). */
  private static GeoPoint elsewhere(NodeTable nodes, int v, SplittableRandom r) {
    String country = nodes.node(v).country();
    GeoPoint here = nodes.node(v).location();
    List<GeoPoint> other = new ArrayList<>();
    for (int u = 0; u < nodes.size(); u++) {
      NodeTable.Node x = nodes.node(u);
      if (u != v && x.location() != null && !x.location().equals(here)
          && (country == null || x.country() == null || !country.equals(x.country()))) {
        other.add(x.location());
      }
    }
    return other.isEmpty() ? null : other.get(r.nextInt(other.size()));
  }
}
