package dev.reed.cli.browse;

import dev.reed.client.DiscoveredServer;
import dev.reed.client.DiscoveryEvent;
import dev.reed.client.DiscoveryListener;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The browse command's live view. On a terminal it redraws a table of the closest servers found
 * so far (ANSI: cursor home, clear) at most 20 times a second; otherwise it prints one plain line
 * per server as its reply arrives, so logs and pipes stay readable.
 */
final class LiveTable implements DiscoveryListener {
  static final String HEADER = String.format(Locale.ROOT, "%-28s %-12s %7s %8s %9s  %s",
      "NAME", "MAP", "PLAYERS", "RTT ms", "PRED ms", "ADDRESS");
  private static final long REDRAW_NANOS = 50_000_000L;

  private final PrintWriter out;
  private final boolean ansi;
  private final int rows;
  private final String title;
  private final List<DiscoveredServer> found = new ArrayList<>();
  private long lastDraw;
  private String status = "";

  LiveTable(PrintWriter out, boolean ansi, int rows, String title) {
    this.out = out;
    this.ansi = ansi;
    this.rows = rows;
    this.title = title;
    if (!ansi) {
      out.println(title);
      out.println(HEADER);
      out.flush();
    }
  }

  @Override
  public void onEvent(DiscoveryEvent e) {
    switch (e) {
      case DiscoveryEvent.Positioned p -> status = p.reposition()
          ? "re-positioned from " + p.calibrationReplies() + " RTTs"
          : "positioned from " + p.calibrationReplies() + " calibration replies (" + p.position().source() + ")";
      case DiscoveryEvent.Listed l -> status = "listed " + l.servers() + " of " + l.totalMatching() + " matching servers";
      case DiscoveryEvent.ServerFound f -> {
        found.add(f.server());
        status = String.format(Locale.ROOT, "%d probes, %d servers, %.2f s", f.probesSent(), found.size(),
            f.elapsed().toNanos() / 1e9);
        if (!ansi) {
          out.println(row(f.server()));
          out.flush();
        }
      }
      case DiscoveryEvent.NoReply n -> { }
      case DiscoveryEvent.FallingBack fb -> {
        status = "coordinator failed, falling back to the master list: " + fb.cause();
        if (!ansi) {
          out.println("# " + status);
          out.flush();
        }
      }
      case DiscoveryEvent.ClustersRanked c -> {
        status = c.samples() + " samples ranked " + c.clusters().size() + " clusters, nearest first: "
            + String.join(" ", c.clusters().stream().limit(5).map(l -> l == null ? "(unknown)" : l).toList());
        if (!ansi) {
          out.println("# " + status);
          out.flush();
        }
      }
      case DiscoveryEvent.Stopped s -> {
        status = String.format(Locale.ROOT, "stopped (%s) after %d probes, %.2f s", s.reason(), s.probesSent(),
            s.elapsed().toNanos() / 1e9);
        if (ansi) draw();
        return;
      }
    }
    if (ansi && System.nanoTime() - lastDraw > REDRAW_NANOS) draw();
  }

  private void draw() {
    lastDraw = System.nanoTime();
    StringBuilder sb = new StringBuilder("\033[H\033[2J");
    sb.append(title).append('\n').append(HEADER).append('\n');
    found.stream().sorted(Comparator.comparingDouble(DiscoveredServer::rttMs)).limit(rows)
        .forEach(s -> sb.append(row(s)).append('\n'));
    if (found.size() > rows) sb.append("... ").append(found.size() - rows).append(" more\n");
    sb.append(status).append('\n');
    out.print(sb);
    out.flush();
  }

  static String row(DiscoveredServer s) {
    return String.format(Locale.ROOT, "%-28s %-12s %3d/%-3d %8.1f %9s  %s", clip(plain(s.name()), 28),
        clip(s.map(), 12), s.players(), s.maxPlayers(), s.rttMs(),
        Double.isNaN(s.predictedMs()) ? "-" : String.format(Locale.ROOT, "%.1f", s.predictedMs()), s.key());
  }

  /** Drops Quake3 colour codes (^1, ^7 ...) and control characters for display. */
  static String plain(String name) {
    return name.replaceAll("\\^[0-9A-Za-z]", "").replaceAll("\\p{Cntrl}", "");
  }

  private static String clip(String s, int n) {
    return s.length() <= n ? s : s.substring(0, n - 1) + "~";
  }
}
