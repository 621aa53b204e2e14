package dev.reed.probe.responder;

/**
 * Cumulative counts since the responder started.
 *
 * @param answered queries answered with server info (A2S info/player/rules, Quake3 info/status)
 * @param challengesIssued A2S challenges sent (first contact or a wrong/expired challenge)
 * @param malformed datagrams dropped because they were not a query this responder understands
 * @param dropped replies not sent: too many delayed replies pending, or the info does not fit a
 *     packet
 * @param rateLimited datagrams dropped unanswered because their sender's network was over its rate
 */
public record ResponderCounters(long answered, long challengesIssued, long malformed, long dropped, long rateLimited) {}
