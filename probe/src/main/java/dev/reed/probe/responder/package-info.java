/**
 * The answering side: a game-query responder for A2S and Quake3 with challenges and an optional
 * reply delay, used by the agent's beacon and by the emulated servers.
 */
package dev.reed.probe.responder;
