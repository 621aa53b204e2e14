package dev.reed.probe.a2s;

/**
 * A decoded client query, for the server side ({@link A2sCodec#decodeRequest}).
 *
 * @param type which query
 * @param challenged whether the request carried a challenge
 * @param challenge the challenge bytes as a little-endian int (meaningless unless challenged);
 *     for A2S_PLAYER/RULES the value {@code -1} ({@code FF FF FF FF}) asks for a challenge
 */
public record A2sRequest(Type type, boolean challenged, int challenge) {
  public enum Type { INFO, PLAYER, RULES }
}
