package dev.reed.probe.master;

import dev.reed.proto.v1.ServerInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The Valve master query filter ({@code \gamedir\cstrike\empty\1\map\de_dust2 ...}, Valve
 * developer wiki "Master Server Query Protocol"), including {@code \nor\N} and {@code \nand\N}
 * groups. Parsing is lenient: unknown keys match everything, a dangling key is ignored.
 */
public final class ValveFilter {
  private interface Condition {
    boolean test(ServerInfo s);
  }

  private final List<Condition> conditions;

  private ValveFilter(List<Condition> conditions) {
    this.conditions = conditions;
  }

  public static ValveFilter parse(String filter) {
    String[] parts = filter.split("\\\\", -1);
    List<String[]> pairs = new ArrayList<>();
    int start = parts.length > 0 && parts[0].isEmpty() ? 1 : 0;
    for (int i = start; i + 1 < parts.length; i += 2) pairs.add(new String[] {parts[i].toLowerCase(Locale.ROOT), parts[i + 1]});
    List<Condition> out = new ArrayList<>();
    int[] pos = {0};
    while (pos[0] < pairs.size()) out.add(next(pairs, pos));
    return new ValveFilter(out);
  }

  private static Condition next(List<String[]> pairs, int[] pos) {
    String[] kv = pairs.get(pos[0]++);
    String key = kv[0];
    String value = kv[1];
    if (key.equals("nor") || key.equals("nand")) {
      int n = parseInt(value);
      List<Condition> group = new ArrayList<>();
      for (int i = 0; i < n && pos[0] < pairs.size(); i++) group.add(next(pairs, pos));
      return key.equals("nor")
          ? s -> group.stream().noneMatch(c -> c.test(s))
          : s -> !group.stream().allMatch(c -> c.test(s));
    }
    return switch (key) {
      case "gamedir" -> s -> s.getGame().equalsIgnoreCase(value);
      case "map" -> s -> s.getMap().equalsIgnoreCase(value);
      case "empty" -> value.equals("1") ? s -> s.getPlayers() > 0 : s -> true;
      case "full" -> value.equals("1") ? s -> s.getMaxPlayers() == 0 || s.getPlayers() < s.getMaxPlayers() : s -> true;
      case "noplayers" -> value.equals("1") ? s -> s.getPlayers() == 0 : s -> true;
      case "password" -> value.equals("0") ? s -> !s.getPassword() : value.equals("1") ? ServerInfo::getPassword : s -> true;
      case "secure" -> value.equals("1") ? ServerInfo::getSecure : s -> true;
      case "appid" -> s -> s.getAppId() == parseInt(value);
      case "napp" -> s -> s.getAppId() != parseInt(value);
      case "name_match" -> {
        Pattern p = glob(value);
        yield s -> p.matcher(s.getName()).matches();
      }
      case "version_match" -> {
        Pattern p = glob(value);
        yield s -> p.matcher(s.getVersion()).matches();
      }
      case "gametype", "gamedata", "gamedataor" -> {
        List<String> tags = List.of(value.toLowerCase(Locale.ROOT).split(","));
        yield s -> {
          List<String> have = List.of(s.getGameType().toLowerCase(Locale.ROOT).split(","));
          return key.equals("gamedataor") ? tags.stream().anyMatch(have::contains) : have.containsAll(tags);
        };
      }
      default -> s -> true; // dedicated, linux, proxy, white, collapse_addr_hash, gameaddr: not tracked
    };
  }

  private static Pattern glob(String g) {
    StringBuilder b = new StringBuilder();
    for (char c : g.toCharArray()) b.append(c == '*' ? ".*" : Pattern.quote(String.valueOf(c)));
    return Pattern.compile(b.toString(), Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
  }

  private static int parseInt(String s) {
    try {
      return Integer.parseInt(s.strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  public boolean test(ServerInfo s) {
    for (Condition c : conditions) if (!c.test(s)) return false;
    return true;
  }
}
