package dev.reed.testbed.world;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * A synthetic geographic world: hosts placed in real cities, RTT from great-circle distance,
 * fibre speed, per-pair path inflation (with some detoured routes that violate the triangle
 * inequality) and per-host access delays. Game servers are placed with the real skew of game
 * hosting ({@link City#catalog()}), which is what makes REED's ordered probing pay off: most
 * servers of a list are far from any one client (Armitage &amp; Heyde, TOMCCAP 2011, section 3).
 *
 * <p>Everything derives from the seed: the same seed and the same sequence of builder calls
 * give the same world. Per-pair terms are computed from a hash of (seed, pair) on demand, so a
 * world of 10,000+ hosts needs no n-by-n matrix. Immutable and thread-safe once built.
 */
public final class SyntheticWorldModel extends PairwiseWorld {
  private final long seed;
  private final GeoParameters params;
  private final double[] latRad;
  private final double[] lonRad;
  private final double[] cosLat;
  private final double[] accessMs;

  private SyntheticWorldModel(long seed, GeoParameters params, List<Host> hosts, List<Double> access) {
    super(hosts.toArray(Host[]::new));
    this.seed = seed;
    this.params = params;
    int n = size();
    latRad = new double[n];
    lonRad = new double[n];
    cosLat = new double[n];
    accessMs = new double[n];
    for (int i = 0; i < n; i++) {
      latRad[i] = Math.toRadians(host(i).lat());
      lonRad[i] = Math.toRadians(host(i).lon());
      cosLat[i] = Math.cos(latRad[i]);
      accessMs[i] = access.get(i);
    }
  }

  public static Builder builder(long seed) {
    return new Builder(seed);
  }

  public GeoParameters parameters() {
    return params;
  }

  public long seed() {
    return seed;
  }

  /** The access delay (RTT contribution) of one host. */
  public double accessMs(int index) {
    return accessMs[index];
  }

  @Override
  double pairRttMs(int lo, int hi) {
    double dp = latRad[hi] - latRad[lo];
    double dl = lonRad[hi] - lonRad[lo];
    double sp = Math.sin(dp / 2);
    double sl = Math.sin(dl / 2);
    double a = sp * sp + cosLat[lo] * cosLat[hi] * sl * sl;
    double km = 2 * 6371.0 * Math.asin(Math.min(1, Math.sqrt(a)));
    long h = RandomDraws.hash(seed, lo, hi);
    double inflation = params.pathInflation() * Math.exp(params.inflationSigma() * RandomDraws.normal(h));
    if (RandomDraws.uniform(h) < params.detourProbability()) {
      inflation *= params.detourFactor();
    }
    return 2 * km / params.fibreKmPerMs() * inflation + accessMs[lo] + accessMs[hi];
  }

  /**
   * Adds hosts in order; each add method returns the index of the (first) host it added. Not
   * thread-safe.
   */
  public static final class Builder {
    private final long seed;
    private final SplittableRandom rng;
    private GeoParameters params = GeoParameters.defaults();
    private final List<Host> hosts = new ArrayList<>();
    private final List<Double> access = new ArrayList<>();
    private final Map<Region, Integer> landmarksPerRegion = new EnumMap<>(Region.class);
    private int servers;

    private Builder(long seed) {
      this.seed = seed;
      this.rng = new SplittableRandom(seed);
    }

    /** Replaces the defaults; call before adding hosts (access delays are drawn when added). */
    public Builder parameters(GeoParameters p) {
      if (!hosts.isEmpty()) {
        throw new IllegalStateException("set parameters before adding hosts");
      }
      this.params = Objects.requireNonNull(p, "parameters");
      return this;
    }

    /**
     * Adds {@code count} game servers in catalog cities drawn by hosting weight, scattered around
     * the city, each with its own access delay. Labels are {@code server-N (City)}.
     */
    public int addGameServers(int count) {
      if (count < 0) {
        throw new IllegalArgumentException("negative count " + count);
      }
      List<City> cities = City.catalog();
      double total = cities.stream().mapToDouble(City::weight).sum();
      int first = hosts.size();
      for (int i = 0; i < count; i++) {
        City c = pick(cities, total);
        add("server-" + servers++ + " (" + c.name() + ")", c, true, serverAccess());
      }
      return first;
    }

    /**
     * Adds a landmark (a well-connected cloud VM) in a region: the k-th landmark of a region goes
     * to the region's k-th biggest hosting city (wrapping round), so landmarks spread out the
     * way the REED paper's PlanetLab landmarks did.
     */
    public int addLandmark(String label, Region region) {
      List<City> cities = citiesOf(region);
      int k = landmarksPerRegion.merge(region, 1, Integer::sum) - 1;
      return addLandmark(label, cities.get(k % cities.size()));
    }

    /** Adds a landmark in a given city, exactly at its centre. */
    public int addLandmark(String label, City city) {
      return add(label, city, false, params.landmarkAccessMs());
    }

    /** Adds a client (a player's machine) in a city of the region drawn by weight. */
    public int addClient(String label, Region region) {
      List<City> cities = citiesOf(region);
      return addClient(label, pick(cities, cities.stream().mapToDouble(City::weight).sum()));
    }

    /** Adds a client in a given city: a server-like access delay plus the last mile. */
    public int addClient(String label, City city) {
      return add(label, city, true, serverAccess() + params.clientAccessExtraMs());
    }

    /** The catalog city of a host added so far (another player in the same city: {@link #addClient(String, City)}). */
    public City cityOf(int index) {
      return City.named(hosts.get(index).city());
    }

    public SyntheticWorldModel build() {
      if (hosts.isEmpty()) {
        throw new IllegalStateException("a world needs at least one host");
      }
      return new SyntheticWorldModel(seed, params, hosts, access);
    }

    private double serverAccess() {
      double u = rng.nextDouble();
      return params.serverAccessMinMs() - params.serverAccessMeanMs() * Math.log1p(-u);
    }

    private int add(String label, City c, boolean scatter, double accessMs) {
      Objects.requireNonNull(label, "label");
      double lat = c.lat();
      double lon = c.lon();
      if (scatter && params.scatterDeg() > 0) {
        lat = Math.max(-89.9, Math.min(89.9, lat + RandomDraws.normal(rng) * params.scatterDeg()));
        lon = wrap(lon + RandomDraws.normal(rng) * params.scatterDeg());
      }
      int index = hosts.size();
      hosts.add(new Host(index, label, c.region(), c.name(), lat, lon));
      access.add(accessMs);
      return index;
    }

    private City pick(List<City> cities, double total) {
      double x = rng.nextDouble() * total;
      for (City c : cities) {
        x -= c.weight();
        if (x < 0) {
          return c;
        }
      }
      return cities.get(cities.size() - 1);
    }

    private static List<City> citiesOf(Region region) {
      List<City> cities = City.catalog().stream().filter(c -> c.region() == region)
          .sorted(Comparator.comparingDouble(City::weight).reversed()).toList();
      if (cities.isEmpty()) {
        throw new IllegalArgumentException("no catalog city in region " + region);
      }
      return cities;
    }

    private static double wrap(double lon) {
      return lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon;
    }
  }
}
