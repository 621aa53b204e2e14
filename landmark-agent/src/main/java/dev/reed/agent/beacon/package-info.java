/**
 * The agent's calibration beacon: answers A2S_INFO and Quake3 getinfo so clients can measure
 * their RTT to this landmark like to any game server.
 */
package dev.reed.agent.beacon;
