package dev.reed.runtime;

import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.Endpoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Servers nobody may probe ({@code --deny FILE}): an operator who asks not to be measured, or an
 * address block a cloud provider's abuse desk names. The coordinator's catalog never publishes a
 * denied target and deletes one it had; each landmark agent also drops denied targets before a
 * round, so its operator can stop probing at once without waiting for the coordinator. One format,
 * one parser. One entry a line:
 *
 * <pre>
 * # comment
 * 203.0.113.7              # every port of one address
 * 198.51.100.0/24          # an IPv4 block
 * 2001:db8::/32            # an IPv6 block
 * 203.0.113.9:27960        # one endpoint
 * [2001:db8::7]:27015
 * </pre>
 *
 * Addresses are literals: a host name could resolve elsewhere tomorrow, and what is denied must
 * stay denied. Every bad line is reported, each with file and line.
 */
public final class DenyList {
  /** Denies nothing. */
  public static final DenyList NONE = new DenyList(List.of());

  /** One line: the first {@code bits} bits of {@code address}, and a port (0 = any). */
  private record Entry(byte[] address, int bits, int port) {
    boolean matches(byte[] a, int p) {
      if (a.length != address.length || (port != 0 && port != p)) return false;
      int whole = bits / 8;
      for (int i = 0; i < whole; i++) if (a[i] != address[i]) return false;
      int rest = bits % 8;
      if (rest == 0) return true;
      int mask = (0xff << (8 - rest)) & 0xff;
      return (a[whole] & mask) == (address[whole] & mask);
    }
  }

  private final List<Entry> entries;

  private DenyList(List<Entry> entries) {
    this.entries = List.copyOf(entries);
  }

  /**
   * @throws IllegalArgumentException {@code FILE:LINE: what is wrong}
   * @throws IOException the file cannot be read
   */
  public static DenyList read(Path file) throws IOException {
    return parse(file.toString(), Files.readAllLines(file));
  }

  /** Parses the lines of a deny file; {@code name} prefixes error messages. */
  public static DenyList parse(String name, List<String> lines) {
    List<Entry> out = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    for (ConfigLine l : ConfigLine.of(lines)) {
      try {
        out.add(entry(l.text()));
      } catch (IllegalArgumentException e) {
        errors.add(name + ":" + l.number() + ": " + e.getMessage());
      }
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(errors.size() == 1 ? errors.getFirst()
          : errors.size() + " bad lines:\n  " + String.join("\n  ", errors));
    }
    return new DenyList(out);
  }

  private static Entry entry(String text) {
    if (text.indexOf(' ') >= 0 || text.indexOf('\t') >= 0) {
      throw new IllegalArgumentException("expected one address, block or endpoint per line, got '" + text + "'");
    }
    int slash = text.indexOf('/');
    if (slash >= 0) {
      byte[] a = Endpoints.literal(text.substring(0, slash)).getAddress();
      int bits;
      try {
        bits = Integer.parseInt(text.substring(slash + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("bad prefix length in '" + text + "'");
      }
      if (bits < 0 || bits > a.length * 8) {
        throw new IllegalArgumentException("prefix length out of range 0-" + a.length * 8 + " in '" + text + "'");
      }
      return new Entry(a, bits, 0);
    }
    boolean endpoint = text.startsWith("[") || (text.indexOf(':') >= 0 && text.indexOf(':') == text.lastIndexOf(':'));
    if (endpoint) {
      Endpoint e = Endpoints.parse(text);
      byte[] a = Endpoints.literal(e.getIp()).getAddress();
      return new Entry(a, a.length * 8, e.getPort());
    }
    byte[] a = Endpoints.literal(text).getAddress();
    return new Entry(a, a.length * 8, 0);
  }

  /** True when some line covers this endpoint. */
  public boolean denies(Endpoint e) {
    if (entries.isEmpty()) return false;
    byte[] a;
    try {
      a = Endpoints.literal(e.getIp()).getAddress();
    } catch (IllegalArgumentException notLiteral) {
      return false; // such a target is unusable anyway and is rejected where it is probed
    }
    for (Entry entry : entries) if (entry.matches(a, e.getPort())) return true;
    return false;
  }

  /** The number of lines. */
  public int size() {
    return entries.size();
  }
}
