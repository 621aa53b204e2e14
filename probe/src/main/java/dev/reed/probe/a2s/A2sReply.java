package dev.reed.probe.a2s;

/** One decoded A2S datagram sent by a server; see {@link A2sCodec#decodeReply}. */
public sealed interface A2sReply permits A2sChallenge, A2sInfo, A2sSplitFragment, A2sPlayers, A2sRules {}
