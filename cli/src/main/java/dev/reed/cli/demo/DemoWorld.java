package dev.reed.cli.demo;

import dev.reed.coordinates.Stats;
import dev.reed.coordinates.geo.Place;
import dev.reed.testbed.world.AddressPlan;
import dev.reed.testbed.world.Host;
import dev.reed.testbed.world.LatencyModel;
import dev.reed.testbed.world.MatrixModel;
import dev.reed.testbed.world.Noise;
import dev.reed.testbed.world.Region;
import dev.reed.testbed.world.SyntheticWorldModel;
import dev.reed.testbed.world.World;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * Who is where in the demo's emulated world: which hosts are game servers, which are landmarks
 * and which are players' machines. The REED paper measured from landmarks spread over Europe,
 * North America and Asia (5 each on PlanetLab) and evaluated clients in the same three regions
 * (Armitage &amp; Heyde, TOMCCAP 2011, Tables III-VI); the synthetic world reproduces that layout.
 * A measured matrix has no geography, so landmarks are spread by farthest-point selection and the
 * clients are drawn at random from the remaining hosts.
 */
final class DemoWorld {
  /** Regions of the landmarks and clients, in the paper's order. */
  static final List<Region> REGIONS = List.of(Region.EU, Region.NA, Region.AS);

  /**
   * A landmark or a client.
   *
   * @param id landmark id or client name
   * @param region region code ("EU", "NA", "AS"; "--" where the world has no geography)
   * @param place city or host label, for people
   * @param host host index in the world
   */
  record Site(String id, String region, String place, int host) {}

  private final World world;
  private final String description;
  private final int[] servers;
  private final List<Site> landmarks;
  private final List<Site> clients;
  private final List<Site> neighbours;

  private DemoWorld(World world, String description, int[] servers, List<Site> landmarks, List<Site> clients,
      List<Site> neighbours) {
    this.world = world;
    this.description = description;
    this.servers = servers;
    this.landmarks = List.copyOf(landmarks);
    this.clients = List.copyOf(clients);
    this.neighbours = List.copyOf(neighbours);
  }

  /**
   * The world of a demo's {@code --world}: {@code synthetic} or {@code matrix:PATH} (the demo and its
   * {@link EmulationChild} processes build the same one from the same options).
   */
  static DemoWorld of(String spec, int servers, int landmarks, long seed, Noise noise) throws IOException {
    return spec.startsWith("matrix:")
        ? matrix(Path.of(spec.substring("matrix:".length())), servers, landmarks, seed, noise)
        : synthetic(servers, landmarks, seed, noise);
  }

  /**
   * The synthetic geographic world: {@code servers} game servers placed with the real skew of
   * game hosting, {@code landmarks} landmarks split evenly over Europe, North America and Asia
   * (each in the region's next-biggest hosting city) and one client per region.
   */
  static DemoWorld synthetic(int servers, int landmarks, long seed, Noise noise) {
    SyntheticWorldModel.Builder b = SyntheticWorldModel.builder(seed);
    int first = b.addGameServers(servers);
    List<Site> lms = new ArrayList<>();
    for (int k = 0; k < landmarks; k++) {
      Region r = REGIONS.get(k % REGIONS.size());
      String id = "lm-" + r.name().toLowerCase() + "-" + (k / REGIONS.size() + 1);
      int host = b.addLandmark(id, r);
      lms.add(new Site(id, r.name(), null, host));
    }
    List<Site> cls = new ArrayList<>();
    for (Region r : REGIONS) {
      String id = "client-" + r.name().toLowerCase();
      cls.add(new Site(id, r.name(), null, b.addClient(id, r)));
    }
    // added after every other host, so the world's other hosts are drawn as without them
    List<Site> next = new ArrayList<>();
    for (Site c : cls) {
      String id = c.id() + "-2";
      next.add(new Site(id, c.region(), null, b.addClient(id, b.cityOf(c.host()))));
    }
    SyntheticWorldModel model = b.build();
    int[] serverHosts = new int[servers];
    Map<Region, Integer> perRegion = new EnumMap<>(Region.class);
    for (int i = 0; i < servers; i++) {
      serverHosts[i] = first + i;
      perRegion.merge(model.host(first + i).region(), 1, Integer::sum);
    }
    String mix = perRegion.entrySet().stream().map(e -> e.getKey().name() + " " + e.getValue())
        .collect(Collectors.joining(", "));
    return new DemoWorld(new World(model, AddressPlan.DEFAULT, noise),
        "synthetic (seed " + seed + "; servers " + mix + ")", serverHosts, withPlaces(model, lms), withPlaces(model, cls),
        withPlaces(model, next));
  }

  /**
   * A measured matrix ({@code matrix.csv}, or a directory holding one): landmarks by farthest-point
   * selection (the paper's landmarks were chosen to be far apart), three random clients, and up
   * to {@code servers} of the remaining hosts as game servers.
   *
   * @throws IOException unreadable or malformed matrix
   * @throws IllegalArgumentException the matrix is too small for the landmarks and clients
   */
  static DemoWorld matrix(Path path, int servers, int landmarks, long seed, Noise noise) throws IOException {
    Path file = Files.isDirectory(path) ? path.resolve("matrix.csv") : path;
    MatrixModel model = MatrixModel.load(file);
    int n = model.size();
    int clientsWanted = REGIONS.size();
    if (n < landmarks + clientsWanted + 10) {
      throw new IllegalArgumentException(file + " has " + n + " hosts; " + landmarks + " landmarks, " + clientsWanted
          + " clients and at least 10 servers need " + (landmarks + clientsWanted + 10));
    }
    boolean[] used = new boolean[n];
    List<Site> lms = new ArrayList<>();
    for (int host : farthestPoints(model, landmarks, seed)) {
      used[host] = true;
      lms.add(new Site("lm-" + (lms.size() + 1), "--", model.host(host).label(), host));
    }
    SplittableRandom rng = new SplittableRandom(seed);
    int[] order = shuffled(n, rng);
    List<Site> cls = new ArrayList<>();
    for (int host : order) {
      if (cls.size() == clientsWanted) break;
      if (used[host] || reachable(model, host) < n / 2) continue;
      used[host] = true;
      cls.add(new Site("client-" + (cls.size() + 1), "--", model.host(host).label(), host));
    }
    // a neighbour per client for the second round (the host nearest to it), when the matrix has hosts to spare
    List<Site> next = new ArrayList<>();
    if (n >= landmarks + 2 * clientsWanted + 10) {
      for (Site c : cls) {
        int best = -1;
        for (int host : order) {
          double d = model.rttMs(c.host(), host);
          if (used[host] || Double.isNaN(d) || reachable(model, host) < n / 2) continue;
          if (best < 0 || d < model.rttMs(c.host(), best)) best = host;
        }
        if (best >= 0) {
          used[best] = true;
          next.add(new Site(c.id() + "-2", "--", model.host(best).label(), best));
        }
      }
    }
    List<Integer> srv = new ArrayList<>();
    for (int host : order) {
      if (srv.size() == servers) break;
      if (!used[host]) srv.add(host);
    }
    int[] serverHosts = srv.stream().mapToInt(Integer::intValue).toArray();
    String note = serverHosts.length < servers ? "; only " + serverHosts.length + " hosts left for servers" : "";
    return new DemoWorld(new World(model, AddressPlan.DEFAULT, noise),
        "matrix " + file + " (" + n + " hosts" + note + ")", serverHosts, lms, cls, next);
  }

  /** Greedy max-min selection, starting from the host that reaches most others. */
  static int[] farthestPoints(LatencyModel model, int k, long seed) {
    int n = model.size();
    int start = 0;
    int best = -1;
    for (int i = 0; i < n; i++) {
      int r = reachable(model, i);
      if (r > best) {
        best = r;
        start = i;
      }
    }
    int[] chosen = new int[k];
    double[] minDist = new double[n];
    Arrays.fill(minDist, Double.POSITIVE_INFINITY);
    chosen[0] = start;
    for (int c = 1; c < k; c++) {
      int last = chosen[c - 1];
      int pick = -1;
      for (int i = 0; i < n; i++) {
        double d = model.rttMs(last, i);
        minDist[i] = Math.min(minDist[i], Double.isNaN(d) ? 0 : d);
        if (contains(chosen, c, i) || reachable(model, i) < n / 2) continue;
        if (pick < 0 || minDist[i] > minDist[pick]) pick = i;
      }
      chosen[c] = pick;
    }
    return chosen;
  }

  private static boolean contains(int[] a, int len, int v) {
    for (int i = 0; i < len; i++) if (a[i] == v) return true;
    return false;
  }

  private static int reachable(LatencyModel model, int host) {
    int r = 0;
    for (int j = 0; j < model.size(); j++) if (j != host && !Double.isNaN(model.rttMs(host, j))) r++;
    return r;
  }

  private static int[] shuffled(int n, SplittableRandom rng) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) a[i] = i;
    for (int i = n - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    return a;
  }

  private static List<Site> withPlaces(LatencyModel model, List<Site> sites) {
    return sites.stream().map(s -> {
      Host h = model.host(s.host());
      return new Site(s.id(), s.region(), h.city() != null ? h.city() : h.label(), s.host());
    }).toList();
  }

  World world() {
    return world;
  }

  String description() {
    return description;
  }

  /** Host indices of the game servers. */
  int[] servers() {
    return servers.clone();
  }

  int serverCount() {
    return servers.length;
  }

  List<Site> landmarks() {
    return landmarks;
  }

  List<Site> clients() {
    return clients;
  }

  /**
   * A client by city or id, case-insensitive ({@code --browser-city}).
   *
   * @param cityOrId null for the first client
   * @throws IllegalArgumentException no client is there, with the choices
   */
  Site client(String cityOrId) {
    if (cityOrId == null) return clients.getFirst();
    for (Site c : clients) {
      if (c.id().equalsIgnoreCase(cityOrId) || (c.place() != null && c.place().equalsIgnoreCase(cityOrId))) return c;
    }
    throw new IllegalArgumentException("--browser-city must be one of the demo's client cities or ids: " + clients.stream()
        .map(c -> c.place() + " (" + c.id() + ")").collect(Collectors.joining(", ")) + "; got '" + cityOrId + "'");
  }

  /**
   * New players for the client reports round: one per client, in the same city (synthetic: a new
   * host there, scattered as any player is; a matrix: the spare host nearest to the client), in
   * {@link #clients()} order; empty when a matrix has no hosts to spare.
   */
  List<Site> neighbours() {
    return neighbours;
  }

  InetAddress address(Site s) {
    return world.address(s.host());
  }

  /**
   * Where a host is, as the world built it (the synthetic world places every host in a city; a
   * measured matrix has no geography).
   *
   * @return the host's location, or null when the world does not know it
   */
  Place location(int host) {
    Host h = world.host(host);
    return Double.isFinite(h.lat()) && Double.isFinite(h.lon()) ? new Place(h.lat(), h.lon(), h.region().name()) : null;
  }

  /** Whether every client and at least one game server have a location: what a geo row and a location database need. */
  boolean located() {
    return clients.stream().allMatch(c -> location(c.host()) != null)
        && Arrays.stream(servers).anyMatch(s -> location(s) != null);
  }

  /**
   * Mean and median of the {@code n} lowest base RTTs from a client to the game servers: what an
   * oracle that knew every RTT would find (the paper's "optimal" column).
   *
   * @return {mean, median}; NaN when the client reaches no server
   */
  double[] optimal(Site client, int n) {
    double[] rtt = Arrays.stream(servers).mapToDouble(s -> world.rttMs(client.host(), s)).filter(d -> !Double.isNaN(d))
        .sorted().toArray();
    int k = Math.min(n, rtt.length);
    if (k == 0) return new double[] {Double.NaN, Double.NaN};
    double sum = 0;
    for (int i = 0; i < k; i++) sum += rtt[i];
    double median = Stats.median(rtt, k);
    return new double[] {sum / k, median};
  }

  /** Landmarks per region, e.g. "EU 5, NA 5, AS 5". */
  String landmarkMix() {
    Map<String, Long> m = new LinkedHashMap<>();
    for (Site s : landmarks) m.merge(s.region(), 1L, Long::sum);
    return m.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
  }
}
