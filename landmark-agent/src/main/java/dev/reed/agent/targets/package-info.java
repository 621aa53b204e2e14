/**
 * What the agent probes: the target catalog and the other landmarks, read in full from their
 * compacted topics at the start of each round.
 */
package dev.reed.agent.targets;
