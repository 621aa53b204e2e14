package dev.reed.cli.browse;

import dev.reed.client.ClientPosition;
import dev.reed.client.DiscoveredServer;
import dev.reed.client.DiscoveryListener;
import dev.reed.client.DiscoveryRequest;
import dev.reed.client.DiscoveryResult;
import dev.reed.client.Filter;
import dev.reed.client.GroupMember;
import dev.reed.client.GroupObjective;
import dev.reed.client.GroupRanking;
import dev.reed.client.GroupServer;
import dev.reed.coordinates.ModelFile;
import dev.reed.coordinates.discovery.DiscoveryModel;
import dev.reed.client.ClusterBy;
import dev.reed.client.PredictedServer;
import dev.reed.client.ReedClient;
import dev.reed.geo.GeoFiles;
import dev.reed.client.ReedClientException;
import dev.reed.client.ServerListSource;
import dev.reed.client.StopRule;
import dev.reed.proto.Endpoints;
import dev.reed.runtime.options.GeoDatabaseOptions;
import dev.reed.runtime.options.DiscoveryModelOption;
import dev.reed.runtime.options.NCloseOption;
import dev.reed.runtime.options.OptionHeadings;
import java.io.Console;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code ./reed browse}: a reference server browser on the client SDK. Shows servers as their
 * replies arrive, then what the discovery cost; optionally the same for traditional discovery
 * and the reduction, as in the REED paper's comparisons (Armitage &amp; Heyde 2011, section 6).
 */
@Command(
    name = "browse",
    mixinStandardHelpOptions = true,
    versionProvider = BrowseCommand.Version.class,
    sortOptions = false,
    usageHelpWidth = 100,
    description = {
        "Find nearby game servers with REED: calibrate, probe in predicted-RTT order, stop early.",
        "",
        "Asks the coordinator for calibration servers, probes them, positions this machine, then probes",
        "servers in ascending predicted RTT at --rate probes/s and stops by --autostop. Exit status: 0 ok,",
        "1 discovery failed (coordinator down or garbage, too few calibration replies), 2 bad options."},
    footer = {"", "Examples:",
        "  ./reed browse --coordinator 127.0.0.1:7400 --game Quake3Arena --n-close 10",
        "  ./reed browse --coordinator 127.0.0.1:7400 --autostop intelligent --compare-traditional --json",
        "  ./reed browse --coordinator 127.0.0.1:7400 --locate            # prints this machine's coordinate",
        "  ./reed browse --coordinator 127.0.0.1:7400 --group friends.txt # one member per line"})
public final class BrowseCommand implements Callable<Integer>, OptionHeadings.Sectioned {

  /** --help by topic (OptionHeadings; ReedTest checks every option is under one). */
  static final OptionHeadings HEADINGS = OptionHeadings.of(
      OptionHeadings.section("Coordinator", "--coordinator", "--deadline", "--location", "--report",
          "--suspect-servers"),
      OptionHeadings.section("Server filter", "--game", "--map", "--not-full", "--not-empty", "--password"),
      OptionHeadings.section("Stopping (the rules' tunables are --model keys)", "--autostop", "--n-close",
          "--rtt-stop", "--rtt-limit", "--max-time"),
      OptionHeadings.section("Probing", "--rate", "--bind", "--timeout", "--model", "--reposition"),
      OptionHeadings.section("Traditional discovery and fallback", "--compare-traditional", "--master",
          "--master-protocol", "--valve-master", "--valve-filter", "--fallback", "--geoip", "--asn",
          "--cluster-by"),
      OptionHeadings.section("Other modes", "--zero-probe", "--locate", "--group", "--objective",
          "--ceiling"),
      OptionHeadings.section("Output", "--rows", "--plain", "--json"));

  @Override
  public OptionHeadings optionHeadings() {
    return HEADINGS;
  }

  @Spec CommandSpec spec;

  /** The build's version, when run from a packaged jar. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = BrowseCommand.class.getPackage().getImplementationVersion();
      return new String[] {"reed browse " + (v == null ? "development build" : v)};
    }
  }

  @Option(names = "--coordinator", paramLabel = "HOST:PORT", required = true,
      description = "The coordinator's gRPC address.")
  String coordinator;

  @Option(names = "--game", paramLabel = "G", description = "Only this game: the A2S folder (e.g. cstrike) or the Quake3 gamename (OpenArena: Quake3Arena).")
  String game = "";

  @Option(names = "--map", paramLabel = "M", description = "Only this map.")
  String map = "";

  @Option(names = "--not-full", description = "Only servers with a free slot.")
  boolean notFull;

  @Option(names = "--not-empty", description = "Only servers with players.")
  boolean notEmpty;

  @Option(names = "--password", paramLabel = "any|exclude|only", description = "Password-protected servers (default: ${DEFAULT-VALUE}).")
  String password = "any";

  /** N_close 40: a server list's first page. */
  @Mixin NCloseOption nClose = new NCloseOption(40);

  @Option(names = "--autostop", paramLabel = "first|intelligent|rtt-stop|rtt-limit|none",
      description = "When to stop probing (default: ${DEFAULT-VALUE}); none = probe every listed server.")
  String autostop = "first";


  @Option(names = "--rtt-stop", paramLabel = "MS", description = "RTT_stop for --autostop rtt-stop (default: ${DEFAULT-VALUE}).")
  double rttStop = 150;
  @Option(names = "--rtt-limit", paramLabel = "MS", description = "RTT_limit for --autostop rtt-limit (default: ${DEFAULT-VALUE}).")
  double rttLimit = 150;

  @Option(names = "--rate", paramLabel = "PROBES/S", description = "Probe rate (default: ${DEFAULT-VALUE}, the paper's DSL setting).")
  double rate = 140;

  @Mixin DiscoveryModelOption modelFile = new DiscoveryModelOption();

  @Option(names = "--bind", paramLabel = "ADDR", description = "Local address to probe from: IP or IP:PORT (default: any).")
  String bind;

  @Option(names = "--timeout", paramLabel = "MS", description = "Probe timeout (default: ${DEFAULT-VALUE}).")
  long timeoutMs = 1000;

  @Option(names = "--deadline", paramLabel = "MS", description = "Deadline of each coordinator call (default: ${DEFAULT-VALUE}).")
  long deadlineMs = 3000;

  @Option(names = "--max-time", paramLabel = "S", description = "Give up probing after this many seconds (default: ${DEFAULT-VALUE}).")
  long maxTimeSeconds = 600;

  @Option(names = "--reposition", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Learn from every reply: re-fit the position, correct predictions near measured servers, ask the list"
          + " again when the position moved (default: ${DEFAULT-VALUE}).")
  boolean reposition;

  @Option(names = "--report", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "After the discovery, report what it measured to the coordinator, in the background (default:"
          + " ${DEFAULT-VALUE}): this machine's coordinate, --location if given, its calibration RTTs to the landmark"
          + " beacons, and each probed server's RTT or timeout. The coordinator keeps no address of this machine (only"
          + " keyed hashes of its network prefix and AS, to cap what one source can change), serves no report, and learns"
          + " from them a correction near where they were measured that improves the ranking for players nearby.")
  boolean report;

  @Option(names = "--suspect-servers", defaultValue = "demote", paramLabel = "include|demote|hide",
      description = "Servers the coordinator's integrity check flags (anycast edges, query proxies, spoofed replies: their"
          + " predicted RTT is unreliable): ranked like the rest, probed after every other server, or not listed"
          + " (default: ${DEFAULT-VALUE}).")
  String suspectServers;

  @Option(names = "--compare-traditional", description = "Also run traditional discovery and show the reduction.")
  boolean compareTraditional;

  @Option(names = "--master", paramLabel = "HOST:PORT",
      description = "Quake3-protocol master server for the traditional list (default: the coordinator's list, shuffled).")
  String master;

  @Option(names = "--master-protocol", paramLabel = "N", description = "Protocol number for --master (default: ${DEFAULT-VALUE}, ioquake3/OpenArena; 68 = Quake3 1.32, and every Quake III-family server on the coordinator's master).")
  int masterProtocol = 71;

  @Option(names = "--valve-master", paramLabel = "HOST:PORT", description = "Valve master server for the traditional list.")
  String valveMaster;

  @Option(names = "--valve-filter", paramLabel = "FILTER", description = "Filter for --valve-master, e.g. \\gamedir\\cstrike.")
  String valveFilter = "";

  @Option(names = "--fallback", description = "If the coordinator fails, discover from --master/--valve-master: Armitage's"
      + " clustering with --geoip/--asn, else traditional discovery.")
  boolean fallback;

  /** For --fallback's clustering: by country with --geoip, by origin AS with --asn. */
  @Mixin GeoDatabaseOptions geo = new GeoDatabaseOptions();

  @Option(names = "--cluster-by", paramLabel = "auto|as|country",
      description = "What --fallback's clustering groups by (default: ${DEFAULT-VALUE}: the origin AS when --asn knows any listed address, else the country).")
  String clusterBy = "auto";

  @Option(names = "--location", paramLabel = "LAT,LON",
      description = "Where this player is, roughly (degrees), sent instead of letting the coordinator look up this machine's address in its location database; the calibration checks it.")
  String location;

  @Option(names = "--zero-probe", description = "Only list servers by the coordinator's predicted ping from this player's location (--location, else its address), with the uncertainty of each prediction: no calibration, no probe (what a web page or a privacy-minded player gets).")
  boolean zeroProbe;

  @Option(names = "--locate", description = "Only position this machine and print its coordinate as a --group line.")
  boolean locate;

  @Option(names = "--group", paramLabel = "FILE",
      description = "Rank servers for a group: one member per line, a coordinate ('alice 1 2 3 4 h=2') or '@HOST:PORT' to locate this machine against that coordinator.")
  Path group;

  @Option(names = "--objective", paramLabel = "min-max|mean", description = "Group objective (default: ${DEFAULT-VALUE}).")
  String objective = "min-max";

  @Option(names = "--ceiling", paramLabel = "MS", description = "Per-member ceiling for --objective mean (default: ${DEFAULT-VALUE}).")
  double ceiling = 150;

  @Option(names = "--rows", paramLabel = "N", description = "Rows of the live table (default: ${DEFAULT-VALUE}).")
  int rows = 20;

  @Option(names = "--plain", description = "Plain lines even on a terminal (no redraw).")
  boolean plain;

  @Option(names = "--json", description = "Print one JSON object with the result instead of the table.")
  boolean json;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    DiscoveryRequest request;
    ReedClient.Builder builder;
    try {
      request = request();
      builder = clientBuilder(coordinator);
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    ReedClient built;
    try {
      built = builder.build();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage()); // e.g. a bad --geoip file
    }
    try (ReedClient client = built) {
      if (zeroProbe) return zeroProbe(client, out);
      if (locate) return locate(client, out);
      if (group != null) return group(client, out);
      return browse(client, request, out, err);
    } catch (ReedClientException e) {
      if (json) {
        out.println(new Json().open().field("error", e.getMessage()).field("kind", e.kind().name().toLowerCase(Locale.ROOT)).close());
        out.flush();
      }
      err.println("reed browse: " + e.getMessage());
      err.flush();
      return 1;
    }
  }

  private int browse(ReedClient client, DiscoveryRequest request, PrintWriter out, PrintWriter err) {
    boolean ansi = !plain && !json && isTerminal();
    DiscoveryListener reedView = json ? progress(err, "reed") : new LiveTable(out, ansi, rows, "REED discovery via " + coordinator);
    DiscoveryResult reed = client.discover(request, reedView);
    DiscoveryResult traditional = null;
    if (compareTraditional) {
      DiscoveryListener tradView = json ? progress(err, "traditional") : new LiveTable(out, ansi, rows, "traditional discovery");
      traditional = client.discoverTraditional(request, tradView);
    }
    if (json) {
      Json j = new Json().open();
      result(j, reed);
      if (traditional != null) {
        result(j.object("traditional"), traditional).close();
        j.object("reduction").field("probes_percent", reduction(reed.probes(), traditional.probes()))
            .field("seconds_percent", reduction(reed.seconds(), traditional.seconds())).close();
      }
      out.println(j.close());
    } else {
      out.println();
      out.println(summary(reed));
      if (traditional != null) {
        out.println(summary(traditional));
        out.printf(Locale.ROOT, "reduction: %.1f %% fewer probes, %.1f %% less time%n",
            reduction(reed.probes(), traditional.probes()), reduction(reed.seconds(), traditional.seconds()));
      }
    }
    out.flush();
    return 0;
  }

  private int locate(ReedClient client, PrintWriter out) {
    ClientPosition p = client.locate();
    if (json) {
      Json j = new Json().open();
      position(j, p);
      out.println(j.close());
    } else {
      out.println(GroupFile.format("me", p.coordinate()));
    }
    out.flush();
    return 0;
  }

  private int group(ReedClient client, PrintWriter out) {
    List<GroupFile.Entry> entries;
    try {
      entries = GroupFile.read(group);
    } catch (IOException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "cannot read --group " + group + ": " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    List<GroupMember> members = new ArrayList<>();
    for (GroupFile.Entry e : entries) {
      if (e.coordinate() != null) {
        members.add(new GroupMember(e.id(), e.coordinate()));
      } else {
        try (ReedClient locator = clientBuilder(e.locateVia()).build()) {
          members.add(new GroupMember(e.id(), locator.locate().coordinate()));
        }
      }
    }
    GroupObjective obj = switch (objective.toLowerCase(Locale.ROOT)) {
      case "min-max", "minmax" -> GroupObjective.MIN_MAX;
      case "mean", "mean-under-ceiling" -> GroupObjective.MEAN_UNDER_CEILING;
      default -> throw new CommandLine.ParameterException(spec.commandLine(), "--objective must be min-max or mean: " + objective);
    };
    GroupRanking ranking;
    try {
      ranking = client.rankForGroup(members, obj, obj == GroupObjective.MEAN_UNDER_CEILING ? ceiling : 0, filter(),
          Math.max(1, Math.min(5000, nClose.nClose())));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    if (json) {
      Json j = new Json().open().field("method", "group").field("objective", obj.name().toLowerCase(Locale.ROOT));
      j.array("members");
      for (GroupMember m : members) {
        j.open().field("id", m.id()).array("coordinate");
        for (double x : m.coordinate().components()) j.value(x);
        j.closeArray().field("height_ms", m.coordinate().height()).close();
      }
      j.closeArray().array("servers");
      for (GroupServer s : ranking.servers()) {
        j.open().field("address", s.key()).field("score_ms", s.scoreMs()).array("member_predicted_ms");
        for (double ms : s.memberPredictedMs()) j.value(ms);
        j.closeArray().field("name", s.info().getName()).field("map", s.info().getMap())
            .field("players", s.info().getPlayers()).field("max_players", s.info().getMaxPlayers()).close();
      }
      out.println(j.closeArray().close());
    } else {
      out.printf(Locale.ROOT, "group of %d (%s): %s%n", members.size(), obj,
          String.join(", ", members.stream().map(GroupMember::id).toList()));
      out.printf(Locale.ROOT, "%-28s %-12s %9s  %-22s %s%n", "NAME", "MAP", "SCORE ms", "ADDRESS", "PER MEMBER ms");
      for (GroupServer s : ranking.servers()) {
        out.printf(Locale.ROOT, "%-28s %-12s %9.1f  %-22s %s%n", LiveTable.plain(s.info().getName()), s.info().getMap(),
            s.scoreMs(), s.key(), String.join(" ", s.memberPredictedMs().stream()
                .map(ms -> String.format(Locale.ROOT, "%.1f", ms)).toList()));
      }
    }
    out.flush();
    return 0;
  }

  private DiscoveryRequest request() {
    int nClose = this.nClose.nClose();
    DiscoveryModel model = model();
    StopRule stop = switch (autostop.toLowerCase(Locale.ROOT)) {
      case "first" -> StopRule.first(nClose);
      case "intelligent" -> StopRule.intelligent(nClose, model);
      case "rtt-stop" -> StopRule.rttStop(rttStop, model);
      case "rtt-limit" -> StopRule.rttLimit(rttLimit, model);
      case "none", "exhaustive" -> StopRule.exhaustive();
      default -> throw new IllegalArgumentException(
          "--autostop must be first, intelligent, rtt-stop, rtt-limit or none: " + autostop);
    };
    if (maxTimeSeconds < 1) throw new IllegalArgumentException("--max-time must be >= 1 s");
    return DiscoveryRequest.defaults().withFilter(filter()).withStop(stop).withReposition(reposition)
        .withMaxDuration(Duration.ofSeconds(maxTimeSeconds));
  }

  private DiscoveryModel discoveryModel;

  /** The discovery model of --model (read once), its stop rules' tunables included. */
  private DiscoveryModel model() {
    if (discoveryModel == null) discoveryModel = ModelFile.option("--model", modelFile.file(), DiscoveryModel.defaults());
    return discoveryModel;
  }

  private Filter filter() {
    Filter.Password pw = switch (password.toLowerCase(Locale.ROOT)) {
      case "any" -> Filter.Password.ANY;
      case "exclude", "no" -> Filter.Password.EXCLUDE;
      case "only", "yes" -> Filter.Password.ONLY;
      default -> throw new IllegalArgumentException("--password must be any, exclude or only: " + password);
    };
    return Filter.none().withGame(game).withMap(map).withNotFull(notFull).withNotEmpty(notEmpty).withPassword(pw);
  }

  /** The zero-probe ranking: one coordinator call, a table or JSON of predicted pings. */
  private int zeroProbe(ReedClient client, PrintWriter out) {
    List<PredictedServer> ranked = client.rankByLocation(filter(), Math.max(1, rows));
    if (json) {
      Json j = new Json().open().array("servers");
      for (PredictedServer p : ranked) {
        j.open().field("address", Endpoints.key(p.address())).field("predicted_ms", p.predictedMs())
            .field("uncertainty_ms", p.uncertaintyMs()).field("country", p.country()).close();
      }
      out.println(j.closeArray().close());
    } else {
      out.printf(Locale.ROOT, "predicted ping from this player's location, no probe (%d servers)%n", ranked.size());
      out.printf(Locale.ROOT, "%-4s %-28s %-8s %s%n", "#", "address", "country", "predicted ping");
      int i = 1;
      for (PredictedServer p : ranked) {
        out.printf(Locale.ROOT, "%-4d %-28s %-8s %.1f ms%s%n", i++, Endpoints.key(p.address()), p.country().isEmpty() ? "-" : p.country(),
            p.predictedMs(), Double.isNaN(p.uncertaintyMs()) ? "" : String.format(Locale.ROOT, " +/- %.1f", p.uncertaintyMs()));
      }
    }
    out.flush();
    return 0;
  }

  private ReedClient.Builder clientBuilder(String target) {
    ReedClient.Builder b = ReedClient.builder().coordinator(target).rate(rate)
        .model(model())
        .probeTimeout(Duration.ofMillis(positive(timeoutMs, "--timeout"))).rpcDeadline(Duration.ofMillis(positive(deadlineMs, "--deadline")));
    if (bind != null) b.bind(bindAddress(bind));
    b.reportMeasurements(report);
    b.suspectServers(switch (suspectServers.toLowerCase(java.util.Locale.ROOT)) {
      case "include" -> dev.reed.client.SuspectServers.INCLUDE;
      case "demote" -> dev.reed.client.SuspectServers.DEMOTE;
      case "hide" -> dev.reed.client.SuspectServers.HIDE;
      default -> throw new CommandLine.ParameterException(spec.commandLine(),
          "--suspect-servers must be include, demote or hide: " + suspectServers);
    });
    if (location != null) {
      String[] ll = location.split(",");
      try {
        if (ll.length != 2) throw new NumberFormatException();
        b.location(Double.parseDouble(ll[0].strip()), Double.parseDouble(ll[1].strip()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--location must be LAT,LON in degrees, e.g. 48.14,11.58: " + location);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--location: " + e.getMessage());
      }
    }
    if (master != null) b.traditionalList(ServerListSource.quake3Master(socketAddress(master, "--master"), masterProtocol));
    else if (valveMaster != null) b.traditionalList(ServerListSource.valveMaster(socketAddress(valveMaster, "--valve-master"), valveFilter));
    if (fallback) {
      if (master == null && valveMaster == null) throw new IllegalArgumentException("--fallback needs --master or --valve-master");
      b.fallbackToTraditional(true);
    }
    ClusterBy by = switch (clusterBy.toLowerCase(java.util.Locale.ROOT)) {
      case "auto" -> ClusterBy.AUTO;
      case "as" -> ClusterBy.ORIGIN_AS;
      case "country" -> ClusterBy.COUNTRY;
      default -> throw new IllegalArgumentException("--cluster-by must be auto, as or country: " + clusterBy);
    };
    if (!geo.locations().isEmpty() || !geo.asns().isEmpty()) {
      if (!fallback) throw new IllegalArgumentException("--geoip and --asn are for --fallback's clustering: add --fallback");
      b.geoDatabases(GeoFiles.of(geo.locations(), geo.asns())).clustering(by);
    }
    return b;
  }

  private static long positive(long v, String name) {
    if (v < 1) throw new IllegalArgumentException(name + " must be >= 1");
    return v;
  }

  static InetSocketAddress bindAddress(String text) {
    return socketAddress(text, "--bind", 0);
  }

  private static InetSocketAddress socketAddress(String text, String option) {
    InetSocketAddress a = socketAddress(text, option, -1);
    if (a.getPort() == 0) throw new IllegalArgumentException(option + " needs a port: " + text);
    return a;
  }

  private static InetSocketAddress socketAddress(String text, String option, int defaultPort) {
    try {
      return Endpoints.socketAddress(text, defaultPort);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + ": " + e.getMessage());
    }
  }

  private static boolean isTerminal() {
    Console c = System.console();
    if (c == null) return false;
    try { // JDK 22+: a Console exists even when redirected; ask whether it is a terminal
      return (Boolean) Console.class.getMethod("isTerminal").invoke(c);
    } catch (ReflectiveOperationException e) {
      return true; // JDK 21: console() is null unless interactive
    }
  }

  /** One stderr line per second while --json runs, so a long discovery shows progress. */
  private static DiscoveryListener progress(PrintWriter err, String label) {
    long[] last = {System.nanoTime()};
    return e -> {
      if (e instanceof dev.reed.client.DiscoveryEvent.ServerFound f && System.nanoTime() - last[0] > 1_000_000_000L) {
        last[0] = System.nanoTime();
        err.printf(Locale.ROOT, "%s: %d probes, %.1f s%n", label, f.probesSent(), f.elapsed().toNanos() / 1e9);
        err.flush();
      }
    };
  }

  static double reduction(double reed, double traditional) {
    return traditional > 0 ? 100.0 * (1 - reed / traditional) : Double.NaN;
  }

  static String summary(DiscoveryResult r) {
    String method = switch (r.method()) {
      case REED -> "REED";
      case TRADITIONAL -> "traditional";
      case TRADITIONAL_FALLBACK -> "traditional (fallback)";
      case CLUSTER_AS_FALLBACK -> "clustering by origin AS (fallback)";
      case CLUSTER_COUNTRY_FALLBACK -> "clustering by country (fallback)";
    };
    String probes = r.probes() + " probes (" + (r.calibrationProbes() > 0 ? r.calibrationProbes() + " calibration, " : "")
        + r.probesNeeded() + " needed to decide)";
    String s = String.format(Locale.ROOT, "%s: %s in %.2f s, %d servers found, RTT mean %.1f ms, median %.1f ms, %d timeouts, stopped: %s",
        method, probes, r.seconds(), r.servers().size(), r.meanRttMs(), r.medianRttMs(), r.timeouts(),
        r.stopReason().name().toLowerCase(Locale.ROOT));
    if (r.coordinatorFailure() != null) s += System.lineSeparator() + "  coordinator: " + r.coordinatorFailure();
    return s;
  }

  private static Json result(Json j, DiscoveryResult r) {
    j.field("method", r.method().name().toLowerCase(Locale.ROOT).replace('_', '-'))
        .field("probes", r.probes()).field("probes_needed", r.probesNeeded()).field("calibration_probes", r.calibrationProbes())
        .field("timeouts", r.timeouts())
        .field("seconds", r.seconds()).field("stop_reason", r.stopReason().name().toLowerCase(Locale.ROOT))
        .field("servers_found", r.servers().size()).field("mean_rtt_ms", r.meanRttMs()).field("median_rtt_ms", r.medianRttMs());
    if (r.coordinatorFailure() != null) j.field("coordinator_failure", r.coordinatorFailure());
    if (r.position() != null) {
      j.object("position");
      position(j, r.position());
      j.close();
    }
    j.array("servers");
    for (DiscoveredServer s : r.servers()) {
      j.open().field("address", s.key()).field("rtt_ms", s.rttMs()).field("predicted_ms", s.predictedMs())
          .field("name", s.name()).field("map", s.map()).field("players", s.players()).field("max_players", s.maxPlayers())
          .field("game", s.info().getGame()).field("protocol", s.protocol() == dev.reed.proto.v1.GameProtocol.GAME_PROTOCOL_A2S ? "a2s" : "quake3")
          .close();
    }
    return j.closeArray();
  }

  private static void position(Json j, ClientPosition p) {
    j.array("coordinate");
    for (double x : p.coordinate().components()) j.value(x);
    j.closeArray().field("height_ms", p.coordinate().height()).field("relative_error", p.relativeError())
        .field("anchors_used", p.anchorsUsed()).field("source", p.source().name().toLowerCase(Locale.ROOT));
  }
}
