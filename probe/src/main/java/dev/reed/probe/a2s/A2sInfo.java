package dev.reed.probe.a2s;

import dev.reed.proto.v1.ServerInfo;

/**
 * A decoded A2S_INFO reply, Source ({@code 0x49}) or GoldSrc ({@code 0x6D}).
 *
 * @param serverInfo the normalised fields every protocol shares
 * @param format {@code 'I'} (Source) or {@code 'm'} (GoldSrc)
 * @param protocolVersion the protocol byte of the reply
 * @param serverType 'd' dedicated, 'l' listen, 'p' SourceTV (lower case, also for GoldSrc)
 * @param environment 'l' Linux, 'w' Windows, 'm'/'o' macOS (lower case)
 * @param gamePort the EDF game port, 0 if absent
 * @param steamId the EDF SteamID, 0 if absent
 * @param gameId the EDF 64-bit GameID, 0 if absent
 */
public record A2sInfo(ServerInfo serverInfo, char format, int protocolVersion, char serverType,
    char environment, int gamePort, long steamId, long gameId) implements A2sReply {}
