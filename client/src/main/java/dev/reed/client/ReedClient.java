package dev.reed.client;

import dev.reed.proto.Endpoints;
import dev.reed.proto.RttBound;
import dev.reed.probe.NanoTicker;

import dev.reed.coordinates.clustering.ClusterConfig;
import dev.reed.coordinates.discovery.DiscoveryModel;
import dev.reed.coordinates.geo.Place;
import dev.reed.geo.GeoFiles;
import dev.reed.geo.IpLocator;
import dev.reed.probe.ProbeEngine;
import dev.reed.probe.Prober;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The REED client SDK: finds nearby game servers with a few dozen probes instead of probing a
 * whole master list (Armitage &amp; Heyde, "REED", ACM TOMCCAP 2011). It asks a coordinator for
 * calibration servers, probes them and positions itself (Algorithm 3), probes servers in
 * ascending predicted RTT (Algorithm 4) at a fixed rate and stops early (section 4.3); it also
 * runs traditional discovery (probe a whole list) as a baseline or fallback, Armitage's
 * clustering of a master list as the fallback when it has location or AS databases, and ranks
 * servers for a group of players.
 *
 * <pre>{@code
 * try (ReedClient client = ReedClient.builder().coordinator("reed.example.net:7400").build()) {
 *   DiscoveryResult r = client.discover(DiscoveryRequest.defaults(), event -> {});
 *   r.closest(5).forEach(s -> System.out.println(s.name() + " " + s.rttMs()));
 * }
 * }</pre>
 *
 * <p>Thread-safe for calls one after another; run discoveries concurrently with separate
 * clients (each has its own probe socket).
 */
public final class ReedClient implements AutoCloseable {

  private final CoordinatorClient coordinator;
  private final ReedDiscovery discovery;
  private final boolean fallbackToTraditional;
  private final Builder options;
  private Prober prober; // created on first probe unless given
  private final boolean ownsProber;
  private final IpLocator ownedLocator; // opened from geoDatabases(...), closed with the client
  private final ReportSender reports; // null: reporting off

  private ReedClient(Builder b, ManagedChannel channel, String target, boolean ownsChannel, IpLocator ownedLocator) {
    this.options = b;
    this.ownedLocator = ownedLocator;
    this.coordinator = new CoordinatorClient(channel, target, b.rpcDeadline, ownsChannel, b.location, b.suspectServers);
    this.prober = b.prober;
    this.ownsProber = b.prober == null;
    this.fallbackToTraditional = b.fallbackToTraditional;
    this.reports = b.reportMeasurements ? new ReportSender(coordinator) : null;
    this.discovery = new ReedDiscovery(coordinator, this::prober, b.rate, b.model, b.positioning,
        b.traditionalList, b.listDeadline, b.listSeed, b.ticker, b.positionMaxAge,
        b.locator == null && ownedLocator == null ? null
            : new ClusterDiscovery(ownedLocator != null ? ownedLocator : b.locator, b.clusterBy, b.clusterConfig, this::prober,
                b.rate, b.ticker), reports);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * REED discovery: calibrate, position, probe in predicted-RTT order, stop by the request's rule.
   * On a coordinator fault or failed calibration, falls back to the {@link Builder#traditionalList} when the client
   * was built with {@link Builder#fallbackToTraditional(boolean)}: Armitage's clustering of that list when
   * {@link Builder#geoDatabases} or {@link Builder#ipLocator} label it (the result says
   * {@link DiscoveryResult.Method#CLUSTER_AS_FALLBACK} or {@link DiscoveryResult.Method#CLUSTER_COUNTRY_FALLBACK}),
   * else traditional discovery ({@link DiscoveryResult.Method#TRADITIONAL_FALLBACK}); the result says why.
   *
   * @throws ReedClientException the coordinator failed (and no fallback), or too few calibration
   *     servers answered
   */
  public synchronized DiscoveryResult discover(DiscoveryRequest request, DiscoveryListener listener) {
    Objects.requireNonNull(request, "request");
    try {
      return discovery.reed(request, listener);
    } catch (ReedClientException e) {
      boolean reedImpossible = e.coordinatorFault() || e.kind() == ReedClientException.Kind.CALIBRATION_FAILED;
      if (!fallbackToTraditional || !reedImpossible || !discovery.hasOwnTraditionalList()) throw e;
      new EventSink(listener).emit(new DiscoveryEvent.FallingBack(e.getMessage()));
      return discovery.fallback(request, listener, e.getMessage());
    }
  }

  /** {@link #discover(DiscoveryRequest, DiscoveryListener)} without events. */
  public DiscoveryResult discover(DiscoveryRequest request) {
    return discover(request, DiscoveryListener.NONE);
  }

  /**
   * Traditional discovery, the baseline: the whole list from the configured
   * {@link Builder#traditionalList source} (default: the coordinator's filtered list in no useful
   * order), every server probed in list order at the same rate. The request's stop rule is
   * ignored (traditional browsers probe everything).
   */
  public synchronized DiscoveryResult discoverTraditional(DiscoveryRequest request, DiscoveryListener listener) {
    return discovery.traditional(request, listener, null);
  }

  /** Calibrates and returns this client's position (to share with a group, see {@link #rankForGroup}). */
  public synchronized ClientPosition locate() {
    return discovery.locate(Duration.ofSeconds(30));
  }

  /**
   * Ranks servers for a group of players from their coordinates (one coordinator call, no probes).
   *
   * @param ceilingMs per-member ceiling for {@link GroupObjective#MEAN_UNDER_CEILING}; 0 = none
   * @param pageSize servers to return, 1-5000
   */
  public synchronized GroupRanking rankForGroup(List<GroupMember> members, GroupObjective objective, double ceilingMs,
      Filter filter, int pageSize) {
    if (members.isEmpty() || members.size() > 64) throw new IllegalArgumentException("a group has 1-64 members: " + members.size());
    if (pageSize < 1 || pageSize > 5000) throw new IllegalArgumentException("pageSize must be 1-5000: " + pageSize);
    if (!(ceilingMs >= 0) || ceilingMs > RttBound.MAX_MS) {
      throw new IllegalArgumentException("ceilingMs must be 0-" + RttBound.MAX_MS + ": " + ceilingMs);
    }
    int d = members.get(0).coordinate().dimensions();
    for (GroupMember m : members) {
      if (m.coordinate().dimensions() != d) {
        throw new IllegalArgumentException("member " + m.id() + " has " + m.coordinate().dimensions() + " dimensions, "
            + members.get(0).id() + " has " + d);
      }
    }
    return coordinator.rankForGroup(members, objective, ceilingMs, filter, pageSize, "");
  }

  /**
   * A zero-probe ranking: servers by the coordinator's prediction from this client's
   * location alone ({@link Builder#location}, else its address in the coordinator's database), one
   * call and no probe, for clients that must not or cannot probe (web pages, privacy-minded
   * players). Fails with COORDINATOR_REJECTED when the coordinator cannot place the client.
   *
   * @param pageSize servers to return, 1-5000
   */
  public synchronized List<PredictedServer> rankByLocation(Filter filter, int pageSize) {
    if (pageSize < 1 || pageSize > 5000) throw new IllegalArgumentException("pageSize must be 1-5000: " + pageSize);
    return coordinator.locationPage(filter, pageSize);
  }

  /**
   * How this client's measurement reports fared so far (all zero when reporting is off,
   * {@link Builder#reportMeasurements}).
   */
  public ReportStats reportStats() {
    return reports == null ? new ReportStats(0, 0, 0) : reports.stats();
  }

  /** The coordinator this client talks to, as given. */
  public String coordinator() {
    return coordinator.target();
  }

  private synchronized Prober prober() {
    if (prober == null) {
      try {
        prober = ProbeEngine.builder().bind(options.bind).rate(options.rate).timeout(options.probeTimeout).build();
      } catch (IOException e) {
        throw new ReedClientException(ReedClientException.Kind.PROBE_SETUP_FAILED,
            "cannot open the probe socket on " + options.bind + ": " + e.getMessage(), e);
      }
    }
    return prober;
  }

  @Override
  public synchronized void close() {
    if (reports != null) {
      reports.flush(options.rpcDeadline); // a browser that exits after one discovery still reports it
    }
    coordinator.close();
    if (ownsProber && prober != null) prober.close();
    if (ownedLocator != null) ownedLocator.close();
  }

  /** Options of a {@link ReedClient}. */
  public static final class Builder {
    private String target;
    private ManagedChannel channel;
    private InetSocketAddress bind = new InetSocketAddress(0);
    private double rate = 140;
    private Duration probeTimeout = Duration.ofSeconds(1);
    private Duration rpcDeadline = Duration.ofSeconds(3);
    private Duration listDeadline = Duration.ofSeconds(15);
    private DiscoveryModel model = DiscoveryModel.defaults();
    private Positioning positioning = Positioning.LOCAL;
    private Prober prober;
    private ServerListSource traditionalList;
    private boolean fallbackToTraditional;
    private long listSeed = 1;
    private NanoTicker ticker = NanoTicker.SYSTEM;
    private Duration positionMaxAge = Duration.ZERO;
    private Place location;
    private GeoFiles geoFiles;
    private IpLocator locator;
    private ClusterBy clusterBy = ClusterBy.AUTO;
    private ClusterConfig clusterConfig = ClusterConfig.defaults();
    private boolean reportMeasurements;
    private SuspectServers suspectServers = SuspectServers.DEMOTE;

    private Builder() {}

    /**
     * What to do with servers the coordinator's host integrity check flags (anycast edges,
     * query proxies, spoofed replies; their predicted RTT is unreliable). Default
     * {@link SuspectServers#DEMOTE}: listed and probed after every other server, so a false alarm
     * costs a server its place, never its listing.
     */
    public Builder suspectServers(SuspectServers s) {
      this.suspectServers = java.util.Objects.requireNonNull(s, "suspectServers");
      return this;
    }

    /**
     * Report what each REED discovery measured to the coordinator (default off): one
     * ReportMeasurements call per discovery, started when the discovery returns and never delaying or
     * failing it (failures are counted in {@link ReedClient#reportStats()} and logged once). It
     * carries the client's coordinate, its location if one was stated ({@link #location}), its
     * calibration RTTs to the landmark beacons, and each game server probed with its RTT or a
     * timeout; no server info. The coordinator stores no client address (only keyed hashes of its
     * network prefix, AS and API key, to cap what one source can change) and serves no report; it
     * learns from them a per-server correction near where they were measured, which improves the
     * ranking for players near this one. {@link ReedClient#close()} waits up to one {@link #rpcDeadline} for a
     * report still in flight.
     */
    public Builder reportMeasurements(boolean on) {
      this.reportMeasurements = on;
      return this;
    }

    /**
     * A coarse location of the player (e.g. its city), sent to the coordinator instead of letting
     * it look up the client's address in its location database (default: none). The calibration
     * checks it and the coordinator corrects it from the RTTs, so an approximate place is enough.
     *
     * @throws IllegalArgumentException latitude outside -90..90 or longitude outside -180..180
     */
    public Builder location(double latitudeDeg, double longitudeDeg) {
      this.location = Place.of(latitudeDeg, longitudeDeg);
      return this;
    }

    /** The coordinator's gRPC address, "host:port" or "[ipv6]:port" (plaintext). Required unless {@link #channel} is given. */
    public Builder coordinator(String hostPort) {
      this.target = Objects.requireNonNull(hostPort, "hostPort").strip();
      Endpoints.HostPort hp;
      try {
        hp = Endpoints.hostPort(target, -1);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("coordinator must be HOST:PORT with a port 1-65535, got '" + hostPort + "'", e);
      }
      if (hp.port() < 1) throw new IllegalArgumentException("coordinator port must be 1-65535, got '" + hostPort + "'");
      return this;
    }

    /** A channel the caller owns (TLS, in-process, interceptors); not closed by the client. */
    public Builder channel(ManagedChannel channel, String label) {
      this.channel = Objects.requireNonNull(channel, "channel");
      this.target = Objects.requireNonNull(label, "label");
      return this;
    }

    /** Local address to probe from (default any address, ephemeral port). */
    public Builder bind(InetSocketAddress bind) {
      this.bind = Objects.requireNonNull(bind, "bind");
      return this;
    }

    /** Probes per second (default 140, the paper's DSL setting). */
    public Builder rate(double probesPerSecond) {
      if (!(probesPerSecond > 0) || probesPerSecond > 100_000) {
        throw new IllegalArgumentException("rate must be in (0, 100000] probes/s: " + probesPerSecond);
      }
      this.rate = probesPerSecond;
      return this;
    }

    /** How long a probe waits for its reply (default 1 s). */
    public Builder probeTimeout(Duration timeout) {
      this.probeTimeout = positive(timeout, "probeTimeout");
      return this;
    }

    /** Deadline of each coordinator call (default 3 s). */
    public Builder rpcDeadline(Duration deadline) {
      this.rpcDeadline = positive(deadline, "rpcDeadline");
      return this;
    }

    /** Deadline for fetching a traditional master list (default 15 s). */
    public Builder listDeadline(Duration deadline) {
      this.listDeadline = positive(deadline, "listDeadline");
      return this;
    }

    /**
     * The discovery policy's parameters (default {@link DiscoveryModel#defaults()}, what
     * {@code ./reed eval} measures; a file of them: {@link DiscoveryModel#load}).
     */
    public Builder model(DiscoveryModel model) {
      this.model = Objects.requireNonNull(model, "model");
      return this;
    }

    /** N_calib: calibration servers to probe (the model's, default 10; must be >= dimensions + 1, at most 64). */
    public Builder calibrationCount(int n) {
      if (n < 2 || n > 64) throw new IllegalArgumentException("calibrationCount must be 2-64: " + n);
      this.model = model.withCalibration(n, Math.min(model.spreadProbes(), n), model.near());
      return this;
    }

    /** What the second calibration phase probes (the model's, default BEACONS). */
    public Builder nearCalibration(DiscoveryModel.NearCalibration near) {
      this.model = model.withCalibration(model.calibrationProbes(), model.spreadProbes(), Objects.requireNonNull(near, "near"));
      return this;
    }

    /** Where the position is solved (default LOCAL). */
    public Builder positioning(Positioning p) {
      this.positioning = Objects.requireNonNull(p, "positioning");
      return this;
    }

    /** Probe with this prober instead of opening one (it is not closed by the client). */
    public Builder prober(Prober prober) {
      this.prober = Objects.requireNonNull(prober, "prober");
      return this;
    }

    /** Where traditional discovery gets its list (default: the coordinator, shuffled). */
    public Builder traditionalList(ServerListSource source) {
      this.traditionalList = Objects.requireNonNull(source, "source");
      return this;
    }

    /**
     * Fall back to the {@link #traditionalList} when the coordinator fails (default off): Armitage's
     * clustering of it with {@link #geoDatabases}, else traditional discovery.
     */
    public Builder fallbackToTraditional(boolean on) {
      this.fallbackToTraditional = on;
      return this;
    }

    /**
     * Location and AS databases (opened by {@link #build()}, closed with the client) that turn the
     * fallback into Armitage's clustering of the {@link #traditionalList}: its servers grouped by
     * origin AS or country, a few probed per cluster, then clusters nearest first. Without them the
     * fallback probes the list in its order. Replaces an {@link #ipLocator}.
     */
    public Builder geoDatabases(GeoFiles files) {
      this.geoFiles = Objects.requireNonNull(files, "files");
      this.locator = null;
      return this;
    }

    /** As {@link #geoDatabases}, with a locator the caller opened (and closes). Replaces {@link #geoDatabases}. */
    public Builder ipLocator(IpLocator locator) {
      this.locator = Objects.requireNonNull(locator, "locator");
      this.geoFiles = null;
      return this;
    }

    /**
     * What the clustering fallback groups by (default {@link ClusterBy#AUTO}: the origin AS when the AS
     * database knows any listed address, else the country).
     */
    public Builder clustering(ClusterBy by) {
      this.clusterBy = Objects.requireNonNull(by, "by");
      return this;
    }

    /** Samples per cluster and how they rank a cluster (default {@link ClusterConfig#defaults()}: 2, the lowest). */
    public Builder clusterConfig(ClusterConfig config) {
      this.clusterConfig = Objects.requireNonNull(config, "config");
      return this;
    }

    /**
     * Reuse the position of a calibration younger than this instead of calibrating again (default
     * zero: every discovery calibrates, as in the paper). A browser that refreshes often saves the
     * calibration probes, which the probe engine would otherwise space 1.1 s apart per server
     * (ioquake3 answers one query per second per address).
     */
    public Builder positionMaxAge(Duration maxAge) {
      if (maxAge == null || maxAge.isNegative()) throw new IllegalArgumentException("positionMaxAge must be >= 0: " + maxAge);
      this.positionMaxAge = maxAge;
      return this;
    }

    /** Seed of the shuffle that makes the coordinator's list unordered for traditional discovery. */
    public Builder listSeed(long seed) {
      this.listSeed = seed;
      return this;
    }

    Builder ticker(NanoTicker t) {
      this.ticker = Objects.requireNonNull(t, "ticker");
      return this;
    }

    /**
     * Connects (lazily: an unreachable coordinator is reported by the first call, with a clear
     * error, not here).
     */
    public ReedClient build() {
      if (target == null) throw new IllegalStateException("coordinator(HOST:PORT) or channel(...) is required");
      if (fallbackToTraditional && traditionalList == null) {
        throw new IllegalStateException("fallbackToTraditional needs a traditionalList(...) that does not depend on the coordinator");
      }
      IpLocator opened = null;
      if (geoFiles != null && !geoFiles.isEmpty()) {
        try {
          opened = IpLocator.open(geoFiles);
        } catch (IOException e) {
          throw new IllegalArgumentException("cannot open the geo databases: " + e.getMessage(), e);
        }
      }
      if (channel != null) return new ReedClient(this, channel, target, false, opened);
      ManagedChannel ch = Grpc.newChannelBuilder(target, InsecureChannelCredentials.create()).build();
      return new ReedClient(this, ch, target, true, opened);
    }

    private static Duration positive(Duration d, String name) {
      if (d == null || d.isNegative() || d.isZero()) throw new IllegalArgumentException(name + " must be positive: " + d);
      return d;
    }
  }
}
