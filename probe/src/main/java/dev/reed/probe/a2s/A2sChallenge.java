package dev.reed.probe.a2s;

/**
 * {@code FF FF FF FF 41 <challenge>}: the server wants the request again with these four bytes
 * appended (Valve's December 2020 change). {@code challenge} holds the bytes as a little-endian
 * int, so {@link A2sCodec#encodeInfoRequest(int)} appends them exactly as received.
 */
public record A2sChallenge(int challenge) implements A2sReply {}
