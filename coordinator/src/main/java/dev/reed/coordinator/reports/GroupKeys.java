package dev.reed.coordinator.reports;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The sources a report counts against, as keyed hashes (HMAC-SHA256) so that what is published
 * never holds the client's address: its network prefix (/24 IPv4, /48 IPv6, so the hosts of one
 * site or home network are one source), its AS when the AS database knows it, and its API key when
 * keys are required. Without the secret nobody can test a guessed prefix against a key; a random
 * per-process secret (the default) makes keys of different replicas and restarts differ, which
 * only weakens the cap across them, so deployments share one secret ({@code --report-key-file}).
 */
public final class GroupKeys {
  /** The group of a report whose client address is unknown (in-process transports). */
  static final String UNKNOWN_PREFIX = "unknown";

  private final byte[] secret;
  private final String origin;

  private GroupKeys(byte[] secret, String origin) {
    if (secret.length < 16) throw new IllegalArgumentException("report key must be at least 16 bytes, got " + secret.length);
    this.secret = secret.clone();
    this.origin = origin;
  }

  /** A random secret for this process only. */
  public static GroupKeys random() {
    byte[] s = new byte[32];
    new SecureRandom().nextBytes(s);
    return new GroupKeys(s, "a random per-process key (replicas and restarts group reporters apart; set --report-key-file)");
  }

  /**
   * The secret in a file (its bytes, surrounding whitespace stripped; at least 16).
   *
   * @throws IllegalArgumentException the file is too short, naming it
   */
  public static GroupKeys fromFile(Path file) throws IOException {
    byte[] raw = Files.readAllBytes(file);
    byte[] s = new String(raw, StandardCharsets.ISO_8859_1).strip().getBytes(StandardCharsets.ISO_8859_1);
    try {
      return new GroupKeys(s, "the key in " + file);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /** Where the secret came from, for the log (never the secret). */
  public String describe() {
    return origin;
  }

  /**
   * The group keys of one report: {@code p:} prefix, {@code a:} AS (when known), {@code k:} API key
   * (when one was presented), the prefix first.
   *
   * @param client the client's address, or null when unknown
   * @param asn its AS number, 0 when unknown
   * @param apiKey the API key it presented, or null
   */
  public List<String> of(InetAddress client, long asn, String apiKey) {
    List<String> out = new ArrayList<>(3);
    out.add("p:" + hash("prefix:" + (client == null ? UNKNOWN_PREFIX : prefix(client))));
    if (asn > 0) out.add("a:" + hash("as:" + asn));
    if (apiKey != null) out.add("k:" + hash("key:" + apiKey));
    return out;
  }

  /** The /24 (IPv4) or /48 (IPv6) network of an address, as text. */
  static String prefix(InetAddress a) {
    byte[] b = a.getAddress();
    if (a instanceof Inet4Address) {
      return (b[0] & 0xff) + "." + (b[1] & 0xff) + "." + (b[2] & 0xff) + ".0/24";
    }
    byte[] net = Arrays.copyOf(b, 16);
    Arrays.fill(net, 6, 16, (byte) 0);
    return HexFormat.of().formatHex(net, 0, 6) + "::/48";
  }

  private String hash(String text) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      // 16 bytes are plenty to tell sources apart and keep records small
      return HexFormat.of().formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)), 0, 16);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }
}
