package dev.reed.eval;

import dev.reed.coordinates.Stats;
import dev.reed.coordinates.geo.GreatCircle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The figures that say whether a matrix behaves like the Internet, the same for a measured matrix
 * and a synthetic world ({@code ./reed eval --describe}): hosts by region; RTT over the fibre floor
 * (1 ms per 100 km of great-circle distance, light in fibre both ways) by distance band and by
 * region pair; each host's nearest and 10th nearest neighbour; the share of triangles that violate
 * the triangle inequality. Hosts only (players are left out); RTT is the mean of both directions.
 *
 * <p>A triangle counts once per edge: the share is over (triangle, edge) pairs whose edge is longer
 * than the path through the third node, which is the share a random ordered triple (i, j, k) with
 * d(i,j) &gt; d(i,k) + d(k,j) estimates (the definition of the data sets' stats.json).
 *
 * @param hosts hosts described
 * @param medianRttMs median RTT over all pairs with a value
 * @param regions hosts per region label (empty without regions)
 * @param bands the fibre-floor ratio per distance band (empty without locations)
 * @param regionPairs the fibre-floor ratio per region pair, pairs at least {@link #REGION_PAIR_MIN_KM} apart
 * @param nearest each host's nearest neighbour's RTT (p10, median, p90 over hosts)
 * @param tenthNearest each host's 10th nearest neighbour's RTT
 * @param tivFraction share of triangle edges longer than the path through the third node
 */
public record MatrixDescription(int hosts, double medianRttMs, Map<String, Integer> regions,
    List<Band> bands, Map<String, Band> regionPairs, Spread nearest, Spread tenthNearest, double tivFraction) {

  /** The distance bands' lower edges, km (the last band is open). */
  static final double[] BAND_EDGES_KM = {50, 500, 1_000, 3_000, 8_000};
  static final double REGION_PAIR_MIN_KM = 500;
  private static final int EXACT_TRIANGLE_HOSTS = 600;
  private static final int SAMPLED_TRIANGLES = 3_000_000;

  /** p10, median and p90 of a set of values, and how many there were. */
  public record Spread(int count, double p10, double median, double p90) {
    static Spread of(double[] values) {
      double[] s = Arrays.stream(values).filter(Double::isFinite).sorted().toArray();
      return new Spread(s.length, Stats.quantile(s, 0.1), Stats.quantile(s, 0.5), Stats.quantile(s, 0.9));
    }
  }

  /**
   * RTT over the fibre floor for the pairs of a distance band (or region pair).
   *
   * @param label e.g. {@code 50-500 km} or {@code EU-NA}
   * @param ratio spread of RTT / (km / 100)
   * @param medianRttMs median RTT of those pairs
   */
  public record Band(String label, Spread ratio, double medianRttMs) {}

  /** Describes the hosts of {@code m}; {@code seed} drives triangle sampling above 600 hosts. */
  public static MatrixDescription of(RttMatrix matrix, long seed) {
    RttMatrix m = matrix.hostsOnly();
    int n = m.size();
    double[][] d = new double[n][n];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        d[a][b] = a == b ? 0 : m.symmetric(a, b);
      }
    }
    List<Double> all = new ArrayList<>();
    for (int a = 0; a < n; a++) {
      for (int b = a + 1; b < n; b++) {
        if (Double.isFinite(d[a][b])) {
          all.add(d[a][b]);
        }
      }
    }
    double medianRtt = Stats.quantileOf(all.stream().mapToDouble(Double::doubleValue).toArray(), 0.5);

    Map<String, Integer> regions = new TreeMap<>();
    for (NodeTable.Node node : m.nodes().nodes()) {
      if (node.region() != null) {
        regions.merge(node.region(), 1, Integer::sum);
      }
    }

    List<Band> bands = new ArrayList<>();
    Map<String, Band> regionPairs = new LinkedHashMap<>();
    if (m.nodes().hasLocations()) {
      List<List<double[]>> perBand = new ArrayList<>();
      for (int i = 0; i < BAND_EDGES_KM.length; i++) {
        perBand.add(new ArrayList<>());
      }
      Map<String, List<double[]>> perPair = new TreeMap<>();
      for (int a = 0; a < n; a++) {
        GeoPoint pa = m.nodes().node(a).location();
        for (int b = a + 1; b < n; b++) {
          GeoPoint pb = m.nodes().node(b).location();
          if (pa == null || pb == null || !Double.isFinite(d[a][b])) {
            continue;
          }
          double km = GreatCircle.km(pa.lat(), pa.lon(), pb.lat(), pb.lon());
          double[] point = {d[a][b] / (km / 100), d[a][b]};
          int band = bandOf(km);
          if (band >= 0) {
            perBand.get(band).add(point);
          }
          String ra = m.nodes().node(a).region();
          String rb = m.nodes().node(b).region();
          if (km >= REGION_PAIR_MIN_KM && ra != null && rb != null) {
            String key = ra.compareTo(rb) <= 0 ? ra + "-" + rb : rb + "-" + ra;
            perPair.computeIfAbsent(key, k -> new ArrayList<>()).add(point);
          }
        }
      }
      for (int i = 0; i < BAND_EDGES_KM.length; i++) {
        bands.add(band(bandLabel(i), perBand.get(i)));
      }
      perPair.forEach((k, v) -> regionPairs.put(k, band(k, v)));
    }

    double[] first = new double[n];
    double[] tenth = new double[n];
    for (int a = 0; a < n; a++) {
      double[] row = new double[n - 1];
      int k = 0;
      for (int b = 0; b < n; b++) {
        if (b != a) {
          row[k++] = d[a][b];
        }
      }
      double[] s = Arrays.stream(row).filter(Double::isFinite).sorted().toArray();
      first[a] = s.length >= 1 ? s[0] : Double.NaN;
      tenth[a] = s.length >= 10 ? s[9] : Double.NaN;
    }
    return new MatrixDescription(n, medianRtt, regions, bands, regionPairs, Spread.of(first), Spread.of(tenth),
        tivFraction(d, seed));
  }

  private static Band band(String label, List<double[]> points) {
    double[] ratio = points.stream().mapToDouble(p -> p[0]).toArray();
    double[] rtt = points.stream().mapToDouble(p -> p[1]).toArray();
    return new Band(label, Spread.of(ratio), Stats.quantileOf(rtt, 0.5));
  }

  static int bandOf(double km) {
    for (int i = BAND_EDGES_KM.length - 1; i >= 0; i--) {
      if (km >= BAND_EDGES_KM[i]) {
        return i;
      }
    }
    return -1;
  }

  private static String bandLabel(int i) {
    return i == BAND_EDGES_KM.length - 1
        ? String.format(Locale.ROOT, "> %,.0f km", BAND_EDGES_KM[i])
        : String.format(Locale.ROOT, "%,.0f-%,.0f km", BAND_EDGES_KM[i], BAND_EDGES_KM[i + 1]);
  }

  /** Every triangle below 600 hosts, 3 million random ones above. */
  private static double tivFraction(double[][] d, long seed) {
    int n = d.length;
    long edges = 0;
    long violating = 0;
    if (n <= EXACT_TRIANGLE_HOSTS) {
      for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
          for (int k = j + 1; k < n; k++) {
            double ij = d[i][j];
            double ik = d[i][k];
            double jk = d[j][k];
            if (Double.isFinite(ij) && Double.isFinite(ik) && Double.isFinite(jk)) {
              edges += 3;
              // only the longest edge can be longer than the other two together
              if (ij > ik + jk || ik > ij + jk || jk > ij + ik) {
                violating++;
              }
            }
          }
        }
      }
    } else {
      SplittableRandom rng = new SplittableRandom(seed);
      for (int t = 0; t < SAMPLED_TRIANGLES; t++) {
        int i = rng.nextInt(n);
        int j = rng.nextInt(n);
        int k = rng.nextInt(n);
        if (i == j || j == k || i == k || !Double.isFinite(d[i][j]) || !Double.isFinite(d[i][k])
            || !Double.isFinite(d[k][j])) {
          continue;
        }
        edges++;
        if (d[i][j] > d[i][k] + d[k][j]) {
          violating++;
        }
      }
    }
    return edges == 0 ? Double.NaN : (double) violating / edges;
  }

  /** The description as text tables (what {@code --describe} prints). */
  public String format() {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "hosts %d, median RTT %.1f ms, triangles violating %.1f %%%n", hosts,
        medianRttMs, 100 * tivFraction));
    if (!regions.isEmpty()) {
      sb.append("hosts by region:");
      regions.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
          .forEach(e -> sb.append(' ').append(e.getKey()).append(' ').append(e.getValue()));
      sb.append('\n');
    }
    sb.append(String.format(Locale.ROOT, "nearest neighbour RTT ms: p10 %.1f, median %.1f, p90 %.1f%n",
        nearest.p10(), nearest.median(), nearest.p90()));
    sb.append(String.format(Locale.ROOT, "10th nearest neighbour RTT ms: p10 %.1f, median %.1f, p90 %.1f%n",
        tenthNearest.p10(), tenthNearest.median(), tenthNearest.p90()));
    if (!bands.isEmpty()) {
      sb.append("RTT over the fibre floor (1 ms per 100 km) by distance:\n");
      appendTable(sb, "distance", bands);
      sb.append(String.format(Locale.ROOT, "RTT over the fibre floor by region pair (pairs >= %.0f km):%n",
          REGION_PAIR_MIN_KM));
      appendTable(sb, "regions", List.copyOf(regionPairs.values()));
    }
    return sb.toString();
  }

  private static void appendTable(StringBuilder sb, String first, List<Band> rows) {
    sb.append(String.format(Locale.ROOT, "  %-16s %7s %6s %6s %6s %10s%n", first, "pairs", "p10", "median", "p90",
        "median RTT"));
    for (Band b : rows) {
      sb.append(String.format(Locale.ROOT, "  %-16s %7d %6.2f %6.2f %6.2f %10.1f%n", b.label(), b.ratio().count(),
          b.ratio().p10(), b.ratio().median(), b.ratio().p90(), b.medianRttMs()));
    }
  }
}
