package dev.reed.testbed.world;

import dev.reed.coordinates.geo.GreatCircle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * A synthetic Internet calibrated against measured matrices ({@link WorldParameters}): hosts in
 * real cities ({@link WorldCity}), routed directly or through their exchange points, with per-pair
 * route stretch and per-host access delay. Unlike {@link SyntheticWorldModel} (the demo's world,
 * great-circle distance times a narrow inflation) its near pairs are as badly predicted by
 * distance as real ones: two datacentres 300 km apart are 6 to 30 ms apart, depending on where
 * their networks meet.
 *
 * <p>Hosts: servers one per city, then further servers round the same cities, then landmarks (cloud
 * VMs with a small access delay) in hub cities, intercontinental hubs first, regions taking turns.
 * Everything derives from the seed; per-pair terms are hashed from (seed, pair), so no n-by-n
 * matrix is stored. Immutable and thread-safe.
 */
public final class CalibratedWorld extends PairwiseWorld {
  private static final List<Region> LANDMARK_TURNS =
      List.of(Region.EU, Region.NA, Region.AS, Region.SA, Region.OC, Region.AF, Region.ME);
  private final long seed;
  private final WorldParameters params;
  private final double[] accessMs;
  private final WorldCity[] hub;
  private final WorldCity[] city;
  private final double[] hubKm;
  private final int[] hubIndex;
  private final int servers;

  private CalibratedWorld(long seed, WorldParameters params, List<Host> hosts, double[] accessMs, WorldCity[] city,
      WorldCity[] hub, int servers) {
    super(hosts.toArray(Host[]::new));
    this.seed = seed;
    this.params = params;
    this.accessMs = accessMs;
    this.hub = hub;
    this.city = city;
    this.servers = servers;
    hubKm = new double[size()];
    hubIndex = new int[size()];
    for (int i = 0; i < hubKm.length; i++) {
      hubKm[i] = km(host(i), hub[i]);
      hubIndex[i] = WorldCity.catalog().indexOf(hub[i]);
    }
  }

  /**
   * A world of {@code servers} servers in the first {@code cities} cities of the catalog (each
   * region's share of the catalog kept) and {@code landmarks} landmarks after them.
   *
   * @throws IllegalArgumentException cities outside 1..catalog size, fewer servers than cities,
   *     negative landmarks, or more landmarks than hub cities
   */
  public static CalibratedWorld generate(WorldParameters params, int cities, int servers, int landmarks, long seed) {
    Objects.requireNonNull(params, "params");
    List<WorldCity> catalog = WorldCity.catalog();
    if (cities < 1 || cities > catalog.size()) {
      throw new IllegalArgumentException("cities must be 1.." + catalog.size() + ", got " + cities);
    }
    if (servers < cities) {
      throw new IllegalArgumentException("servers must be at least the cities (" + cities + "), got " + servers);
    }
    List<WorldCity> landmarkCities = landmarkCities();
    if (landmarks < 0 || landmarks > landmarkCities.size()) {
      throw new IllegalArgumentException("landmarks must be 0.." + landmarkCities.size() + ", got " + landmarks);
    }
    List<WorldCity> chosen = firstOfEachRegion(catalog, cities);
    SplittableRandom rng = new SplittableRandom(seed);
    List<Host> hosts = new ArrayList<>();
    List<Double> access = new ArrayList<>();
    List<WorldCity> hubs = new ArrayList<>();
    List<WorldCity> homes = new ArrayList<>();
    List<WorldCity> hubCities = catalog.stream().filter(c -> c.hub() >= 1).toList();
    List<WorldCity> bigHubs = catalog.stream().filter(c -> c.hub() == 2).toList();
    for (int s = 0; s < servers; s++) {
      WorldCity c = chosen.get(s % chosen.size());
      int round = s / chosen.size();
      double[] at = scatter(c, params.scatterKm(), rng);
      String label = round == 0 ? c.name() : c.name() + " #" + (round + 1);
      hosts.add(new Host(hosts.size(), label, c.region(), c.name(), at[0], at[1]));
      homes.add(c);
      access.add(params.accessMedianMs() * Math.exp(params.accessSigma() * RandomDraws.normal(rng)));
      boolean core = c.region() == Region.EU || c.region() == Region.NA;
      double remote = core ? params.remoteHubShareCore() : params.remoteHubShareEdge();
      hubs.add(nearest(at, rng.nextDouble() < remote ? bigHubs : hubCities));
    }
    for (int k = 0; k < landmarks; k++) {
      WorldCity c = landmarkCities.get(k);
      hosts.add(new Host(hosts.size(), "lm-" + c.name(), c.region(), c.name(), c.lat(), c.lon()));
      homes.add(c);
      access.add(params.landmarkAccessMs());
      hubs.add(c);
    }
    return new CalibratedWorld(seed, params, hosts, access.stream().mapToDouble(Double::doubleValue).toArray(),
        homes.toArray(WorldCity[]::new), hubs.toArray(WorldCity[]::new), servers);
  }

  /** The fitted world of {@code cities} cities, one server each, no landmarks. */
  public static CalibratedWorld of(int cities, long seed) {
    return generate(WorldParameters.fitted(), cities, cities, 0, seed);
  }

  public WorldParameters parameters() {
    return params;
  }

  public long seed() {
    return seed;
  }

  /** Number of servers; the landmarks are the hosts after them. */
  public int servers() {
    return servers;
  }

  /** The access delay (RTT contribution) of one host. */
  public double accessMs(int index) {
    return accessMs[index];
  }

  /** The ISO 3166 alpha-2 country of a host's city. */
  public String countryOf(int index) {
    return city[index].country();
  }

  /** The exchange point a host's traffic goes through when it does not peer directly. */
  public WorldCity hubOf(int index) {
    return hub[index];
  }

  @Override
  double pairRttMs(int lo, int hi) {
    long h = RandomDraws.hash(seed, lo, hi);
    double z = RandomDraws.normal(h);
    double u3 = RandomDraws.uniform(h);
    double path;
    if (u3 < params.directShare()) {
      path = km(host(lo), host(hi));
    } else if (hub[lo] == hub[hi]) {
      path = hubKm[lo] + hubKm[hi];
    } else {
      path = hubKm[lo] + GreatCircle.km(hub[lo].lat(), hub[lo].lon(), hub[hi].lat(), hub[hi].lon()) + hubKm[hi];
    }
    double stretch = params.stretch() * Math.exp(params.stretchSigma() * z + params.hubPairSigma() * hubPairZ(lo, hi));
    return path / 100 * stretch + accessMs[lo] + accessMs[hi];
  }

  /** A standard normal drawn once per unordered pair of exchange points (0 within one). */
  private double hubPairZ(int a, int b) {
    int ha = hubIndex[a];
    int hb = hubIndex[b];
    if (ha == hb) {
      return 0;
    }
    return RandomDraws.normal(RandomDraws.hash(~seed, Math.min(ha, hb), Math.max(ha, hb)));
  }

  /** Hub cities in the order landmarks take them: intercontinental hubs first, regions taking turns. */
  static List<WorldCity> landmarkCities() {
    List<WorldCity> out = new ArrayList<>();
    for (int tier = 2; tier >= 1; tier--) {
      Map<Region, List<WorldCity>> byRegion = new EnumMap<>(Region.class);
      for (WorldCity c : WorldCity.catalog()) {
        if (c.hub() == tier) {
          byRegion.computeIfAbsent(c.region(), r -> new ArrayList<>()).add(c);
        }
      }
      for (int round = 0; !byRegion.values().stream().allMatch(List::isEmpty); round++) {
        for (Region r : LANDMARK_TURNS) {
          List<WorldCity> l = byRegion.getOrDefault(r, List.of());
          if (!l.isEmpty()) {
            out.add(l.remove(0));
          }
        }
      }
    }
    return out;
  }

  /** The first cities of each region, each region's count in proportion to the catalog (largest remainder). */
  private static List<WorldCity> firstOfEachRegion(List<WorldCity> catalog, int cities) {
    Map<Region, List<WorldCity>> byRegion = new EnumMap<>(Region.class);
    for (WorldCity c : catalog) {
      byRegion.computeIfAbsent(c.region(), r -> new ArrayList<>()).add(c);
    }
    Map<Region, Integer> quota = new EnumMap<>(Region.class);
    int given = 0;
    for (var e : byRegion.entrySet()) {
      int q = (int) Math.floor((double) cities * e.getValue().size() / catalog.size());
      quota.put(e.getKey(), q);
      given += q;
    }
    List<Region> byRemainder = new ArrayList<>(byRegion.keySet());
    byRemainder.sort(Comparator.comparingDouble((Region r) -> {
      double exact = (double) cities * byRegion.get(r).size() / catalog.size();
      return -(exact - Math.floor(exact));
    }));
    for (int i = 0; given < cities; i++, given++) {
      quota.merge(byRemainder.get(i % byRemainder.size()), 1, Integer::sum);
    }
    List<WorldCity> out = new ArrayList<>();
    for (WorldCity c : catalog) {
      List<WorldCity> l = byRegion.get(c.region());
      if (l.indexOf(c) < quota.get(c.region())) {
        out.add(c);
      }
    }
    return out;
  }

  private static WorldCity nearest(double[] at, List<WorldCity> candidates) {
    WorldCity best = null;
    double bestKm = Double.POSITIVE_INFINITY;
    for (WorldCity c : candidates) {
      double km = GreatCircle.km(at[0], at[1], c.lat(), c.lon());
      if (km < bestKm) {
        bestKm = km;
        best = c;
      }
    }
    return best;
  }

  private static double[] scatter(WorldCity c, double sdKm, SplittableRandom rng) {
    if (sdKm <= 0) {
      return new double[] {c.lat(), c.lon()};
    }
    double km = Math.abs(RandomDraws.normal(rng)) * sdKm;
    return GreatCircle.destination(c.lat(), c.lon(), km, rng.nextDouble() * 2 * Math.PI);
  }

  private static double km(Host a, Host b) {
    return GreatCircle.km(a.lat(), a.lon(), b.lat(), b.lon());
  }

  private static double km(Host a, WorldCity c) {
    return GreatCircle.km(a.lat(), a.lon(), c.lat(), c.lon());
  }
}
