package dev.reed.probe.quake3;

/**
 * A decoded client query, for the server side ({@link Quake3Codec#decodeRequest}).
 *
 * @param type which query
 * @param challenge the challenge argument as sent; empty if none
 */
public record Quake3Request(Type type, String challenge) {
  public enum Type { GETINFO, GETSTATUS }
}
