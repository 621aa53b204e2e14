/**
 * One measuring round: the targets and peer beacons probed through the probe engine and turned
 * into sample records, and the round number that never repeats across restarts.
 */
package dev.reed.agent.round;
